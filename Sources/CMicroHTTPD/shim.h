// The slice of libmicrohttpd that MicroHTTP uses. Swift cannot call C variadic
// functions, so every variadic call gets a fixed-argument static inline wrapper here.
#ifndef CMICROHTTPD_SHIM_H
#define CMICROHTTPD_SHIM_H

#include <stdint.h>
#include <stddef.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <microhttpd.h>

#include <stdarg.h>

typedef void *(*dh_uri_log_callback)(void *cls, const char *uri, struct MHD_Connection *connection);
typedef void (*dh_logger)(void *cls, const char *format, va_list arguments);

/// Everything `MHD_start_daemon` is given, as one struct (its options are variadic).
struct dh_daemon_options {
    unsigned int flags;
    MHD_socket listen_socket;
    MHD_AccessHandlerCallback handler;
    MHD_RequestCompletedCallback completed;
    dh_uri_log_callback uri_log;
    MHD_NotifyConnectionCallback notify_connection;
    MHD_AcceptPolicyCallback accept_policy;
    dh_logger logger;
    void *context;
    unsigned int thread_pool_size;
    unsigned int connection_timeout_seconds;
    unsigned int connection_limit;
    unsigned int per_ip_connection_limit;
    size_t connection_memory_limit;
};

static inline struct MHD_Daemon *dh_start_daemon(const struct dh_daemon_options *o) {
    return MHD_start_daemon(o->flags, 0, o->accept_policy, o->context, o->handler, o->context,
                            MHD_OPTION_EXTERNAL_LOGGER, o->logger, o->context,
                            MHD_OPTION_LISTEN_SOCKET, o->listen_socket,
                            MHD_OPTION_NOTIFY_COMPLETED, o->completed, o->context,
                            MHD_OPTION_URI_LOG_CALLBACK, o->uri_log, o->context,
                            MHD_OPTION_NOTIFY_CONNECTION, o->notify_connection, o->context,
                            MHD_OPTION_THREAD_POOL_SIZE, o->thread_pool_size,
                            MHD_OPTION_CONNECTION_TIMEOUT, o->connection_timeout_seconds,
                            MHD_OPTION_CONNECTION_LIMIT, o->connection_limit,
                            MHD_OPTION_PER_IP_CONNECTION_LIMIT, o->per_ip_connection_limit,
                            MHD_OPTION_CONNECTION_MEMORY_LIMIT, o->connection_memory_limit,
                            MHD_OPTION_END);
}

static inline uint16_t dh_daemon_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info ? info->port : 0;
}

static inline unsigned int dh_daemon_connection_count(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_CURRENT_CONNECTIONS);
    return info ? info->num_connections : 0;
}

static inline const struct sockaddr *dh_client_address(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    return info ? info->client_addr : NULL;
}

static inline int dh_connection_fd(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info ? info->connect_fd : -1;
}

/// The status of the response queued on the connection, 0 when none is: libmicrohttpd's own error
/// answers are queued without the access handler.
static inline unsigned int dh_connection_http_status(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_HTTP_STATUS);
    return info ? info->http_status : 0;
}

/// The first argument of a log line whose format starts with `%u`, read from a copy: the line
/// may still be formatted from `arguments` afterwards.
static inline unsigned int dh_first_unsigned_argument(va_list arguments) {
    va_list copy;
    va_copy(copy, arguments);
    unsigned int value = va_arg(copy, unsigned int);
    va_end(copy);
    return value;
}

static inline void *dh_socket_context(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return info ? info->socket_context : NULL;
}

#endif
