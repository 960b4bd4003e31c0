/* The ceiling of our design on this machine: libmicrohttpd driven from C, answering every GET with
 * one file's bytes from memory through one response built at start (our security headers, no
 * per-visitor token). scripts/bench serves the home page's bytes with it beside ours and nginx, so
 * the gap between it and ours is what the Swift layer costs. Threads, event loop, connection pool
 * and timeout are dynamic-home's. With an ENCODING (gzip), FILE holds the page in that coding and
 * the response says so: the ceiling of the compressed home rows.
 *
 *     mhd-reference PORT THREADS FILE [ENCODING]
 */
#include <arpa/inet.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct MHD_Response *page;

static enum MHD_Result answer(void *cls, struct MHD_Connection *connection, const char *url, const char *method,
                              const char *version, const char *upload, size_t *upload_size, void **request) {
    (void)cls; (void)url; (void)version; (void)upload; (void)upload_size;
    /* Answering on the first call (headers only) makes 0.9.75 close the connection. */
    if (*request == NULL) { *request = connection; return MHD_YES; }
    if (strcmp(method, "GET") != 0) return MHD_NO;
    return MHD_queue_response(connection, MHD_HTTP_OK, page);
}

static char *read_file(const char *path, size_t *size) {
    FILE *file = fopen(path, "rb");
    if (file == NULL) return NULL;
    char *bytes = NULL;
    if (fseek(file, 0, SEEK_END) == 0 && (*size = (size_t)ftell(file)) > 0 && fseek(file, 0, SEEK_SET) == 0
        && (bytes = malloc(*size)) != NULL && fread(bytes, 1, *size, file) != *size) {
        free(bytes);
        bytes = NULL;
    }
    fclose(file);
    return bytes;
}

int main(int argc, char **argv) {
    if (argc != 4 && argc != 5) { fprintf(stderr, "usage: mhd-reference PORT THREADS FILE [ENCODING]\n"); return 2; }
    size_t size = 0;
    char *bytes = read_file(argv[3], &size);
    if (bytes == NULL) { perror(argv[3]); return 1; }
    page = MHD_create_response_from_buffer(size, bytes, MHD_RESPMEM_PERSISTENT);
    MHD_add_response_header(page, "Content-Type", "text/html; charset=utf-8");
    MHD_add_response_header(page, "Content-Security-Policy", "default-src 'self'; frame-ancestors 'none'; "
                            "base-uri 'self'; form-action 'self'; object-src 'none'");
    MHD_add_response_header(page, "Referrer-Policy", "same-origin");
    MHD_add_response_header(page, "X-Content-Type-Options", "nosniff");
    MHD_add_response_header(page, "X-Request-Id", "00000000-1");
    if (argc == 5) {
        MHD_add_response_header(page, "Content-Encoding", argv[4]);
        MHD_add_response_header(page, "Vary", "Accept-Encoding");
    }

    struct sockaddr_in address = { .sin_family = AF_INET, .sin_port = htons((uint16_t)atoi(argv[1])),
                                   .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
    /* Blocked before the daemon starts, so its threads inherit the mask and sigwait gets them. */
    sigset_t stop;
    sigemptyset(&stop);
    sigaddset(&stop, SIGTERM);
    sigaddset(&stop, SIGINT);
    pthread_sigmask(SIG_BLOCK, &stop, NULL);
    struct MHD_Daemon *daemon = MHD_start_daemon(
        MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL | MHD_USE_TURBO, 0, NULL, NULL, answer, NULL,
        MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&address,
        MHD_OPTION_THREAD_POOL_SIZE, (unsigned int)atoi(argv[2]),
        MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)8192,
        MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int)30,
        MHD_OPTION_END);
    if (daemon == NULL) { fprintf(stderr, "mhd-reference: cannot listen on 127.0.0.1:%s\n", argv[1]); return 1; }
    int signal_number;
    sigwait(&stop, &signal_number);
    MHD_stop_daemon(daemon);
    MHD_destroy_response(page);
    free(bytes);
    return 0;
}
