#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Runs a program to its end (`posix_spawn`), its standard input empty (/dev/null), its
/// standard output and error together handed to `onOutput` in chunks as they come. The
/// program's exit status, or 128 + the signal that ended it.
public func runProgram(
  _ path: String, arguments: [String], onOutput: ([UInt8]) throws -> Void
) throws -> Int32 {
  var pipeEnds: [Int32] = [0, 0]
  guard pipe(&pipeEnds) == 0 else { throw SystemError("\(path): cannot make a pipe") }
  let (readEnd, writeEnd) = (pipeEnds[0], pipeEnds[1])
  var readOpen = true
  defer { if readOpen { _ = close(readEnd) } }

  var actions = posix_spawn_file_actions_t()
  posix_spawn_file_actions_init(&actions)
  defer { posix_spawn_file_actions_destroy(&actions) }
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
  posix_spawn_file_actions_adddup2(&actions, writeEnd, 1)
  posix_spawn_file_actions_adddup2(&actions, writeEnd, 2)
  posix_spawn_file_actions_addclose(&actions, readEnd)
  posix_spawn_file_actions_addclose(&actions, writeEnd)

  let argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
  defer { for argument in argv { free(argument) } }
  var pid = pid_t()
  let spawned = posix_spawn(&pid, path, &actions, nil, argv, environ)
  _ = close(writeEnd)
  guard spawned == 0 else { throw SystemError("\(path): cannot run", errno: spawned) }

  var buffer = [UInt8](repeating: 0, count: 65_536)
  var failure: Error?
  while true {
    let got = buffer.withUnsafeMutableBytes { read(readEnd, $0.baseAddress!, $0.count) }
    if got < 0 && errno == EINTR { continue }
    if got <= 0 { break }
    if failure == nil {
      do { try onOutput(Array(buffer.prefix(got))) } catch { failure = error }
    }
  }
  _ = close(readEnd)
  readOpen = false

  var status: Int32 = 0
  while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
  if let failure { throw failure }
  // WIFEXITED / WEXITSTATUS / WTERMSIG, which Swift does not import as macros.
  let signal = status & 0x7f
  return signal == 0 ? (status >> 8) & 0xff : 128 + signal
}
