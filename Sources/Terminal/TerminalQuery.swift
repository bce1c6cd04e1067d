#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One round trip to the terminal: questions written, answers read in raw mode (no echo,
/// no line buffering) until they are complete or time runs out, the terminal's mode put
/// back as it was.
public enum TerminalQuery {
    /// True when standard input and output are both the terminal (not a pipe or a file).
    public static var isTerminal: Bool { isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1 }

    /// Writes `question` to the terminal (`output`, standard output unless a test says) and
    /// returns what `input` brought back within `timeoutMilliseconds`, stopping early once
    /// `isComplete` says so. A terminal that has begun answering gets up to
    /// `answeringMilliseconds` more to finish (over ssh the replies arrive spread out), so
    /// its late replies are read here rather than typed into the shell after. `clock` is
    /// monotonic milliseconds (tests give their own, so no test waits on real time).
    public static func ask(_ question: [UInt8], input: Int32 = 0, output: Int32 = 1,
                           timeoutMilliseconds: Int, answeringMilliseconds: Int = 500,
                           clock: () -> Int = TerminalQuery.milliseconds,
                           until isComplete: ([UInt8]) -> Bool) -> [UInt8] {
        var saved = termios()
        guard tcgetattr(input, &saved) == 0 else { return [] }
        var raw = saved
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 0
            cc[Int(VTIME)] = 0
        }
        guard tcsetattr(input, TCSANOW, &raw) == 0 else { return [] }
        defer { tcsetattr(input, TCSANOW, &saved) }
        // One write: the batch is a few dozen bytes, which a terminal takes whole.
        guard write(output, question, question.count) == question.count else { return [] }
        var answer: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1024)
        let start = clock()
        var deadline = start + timeoutMilliseconds
        while !isComplete(answer) {
            let left = deadline - clock()
            if left <= 0 { break }
            var descriptor = pollfd(fd: input, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, Int32(left))
            if ready < 0 && errno == EINTR { continue }
            if ready <= 0 { break }
            let count = read(input, &buffer, buffer.count)
            if count <= 0 { break }
            if answer.isEmpty { deadline = max(deadline, start + answeringMilliseconds) }
            answer += buffer[0..<count]
        }
        return answer
    }

    /// Monotonic milliseconds.
    public static func milliseconds() -> Int {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return now.tv_sec * 1000 + now.tv_nsec / 1_000_000
    }
}
