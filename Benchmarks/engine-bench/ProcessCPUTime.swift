import Glibc

/// CPU time used so far: by the whole process, or by one thread.
enum ProcessCPUTime {
    /// Seconds of CPU the process has used, all threads, user and system (`getrusage`).
    static func now() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }

    /// Seconds of CPU the calling thread has used (`CLOCK_THREAD_CPUTIME_ID`).
    static func currentThread() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
