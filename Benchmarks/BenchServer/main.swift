try runBenchServer()
