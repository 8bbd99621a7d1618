import MediaplayConsole
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Raw mode on a pseudo-terminal of the test's own: what changes, what stays, and every way back.
@Suite("Raw terminal")
struct RawTerminalTests {
    /// A new pseudo-terminal's two sides (posix_openpt, unlockpt and ptsname as Linux does them:
    /// Glibc's module does not export the XSI functions).
    private func pseudoTerminal() throws -> (master: Int32, slave: Int32) {
        let master = open("/dev/ptmx", O_RDWR | O_NOCTTY)
        var unlock: Int32 = 0
        var number: UInt32 = 0
        // TIOCSPTLCK and TIOCGPTN, macros Swift does not import.
        try #require(master >= 0 && ioctl(master, UInt(0x4004_5431), &unlock) == 0)
        try #require(ioctl(master, UInt(0x8004_5430), &number) == 0)
        let slave = open("/dev/pts/\(number)", O_RDWR | O_NOCTTY)
        try #require(slave >= 0)
        return (master, slave)
    }

    private func settings(_ descriptor: Int32) -> termios {
        var settings = termios()
        _ = tcgetattr(descriptor, &settings)
        return settings
    }

    private func flags(_ settings: termios) -> [tcflag_t] {
        [settings.c_iflag, settings.c_oflag, settings.c_cflag, settings.c_lflag]
    }

    private func isRaw(_ settings: termios) -> Bool {
        settings.c_lflag & tcflag_t(ICANON | ECHO) == 0
    }

    @Test("raw mode turns off line editing and echo only; suspend, resume and restore move between the two")
    func modes() throws {
        let (master, slave) = try pseudoTerminal()
        defer {
            close(slave)
            close(master)
        }
        let cooked = settings(slave)
        let terminal = try #require(RawTerminal(descriptor: slave))
        let raw = settings(slave)
        #expect(isRaw(raw) && terminal.isRaw)
        #expect(raw.c_lflag & tcflag_t(ISIG) != 0, "Ctrl-C and Ctrl-Z still send signals")
        #expect(raw.c_oflag == cooked.c_oflag && raw.c_iflag == cooked.c_iflag && raw.c_cflag == cooked.c_cflag)
        #expect(raw.c_lflag == cooked.c_lflag & ~tcflag_t(ICANON | ECHO))

        terminal.suspend()
        #expect(flags(settings(slave)) == flags(cooked) && !terminal.isRaw)
        terminal.resume()
        #expect(flags(settings(slave)) == flags(raw) && terminal.isRaw)
        // A shell that put its own settings back while the program was stopped: resume wins.
        var shell = cooked
        _ = tcsetattr(slave, TCSANOW, &shell)
        terminal.resume()
        #expect(isRaw(settings(slave)))

        terminal.restore()
        #expect(flags(settings(slave)) == flags(cooked) && !terminal.isRaw)
        terminal.resume()
        terminal.restore()
        #expect(flags(settings(slave)) == flags(cooked), "restored for good: resume does nothing")
    }

    @Test("a pipe is not a terminal: no raw mode")
    func pipe() throws {
        var ends: [Int32] = [-1, -1]
        try #require(Glibc.pipe(&ends) == 0)
        defer { for end in ends { close(end) } }
        #expect(RawTerminal(descriptor: ends[0]) == nil)
    }
}
