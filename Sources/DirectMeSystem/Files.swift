#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A system call that failed: what was done, on which file, and the system's reason.
public struct SystemError: Error, CustomStringConvertible, Sendable {
  public var description: String
  public init(_ what: String, errno code: Int32 = errno) {
    description = "\(what) (\(String(cString: strerror(code))))"
  }
}

/// A file written as it goes (each `write` reaches the system before it returns, as
/// Foundation's `FileHandle` does), to append to or to start anew.
public final class OutputFile: @unchecked Sendable {
  public let path: String
  private var descriptor: Int32

  public enum Mode: Sendable {
    /// Created empty, or emptied.
    case truncate
    /// Written after what it holds (created when missing).
    case append
  }

  /// Opens `path`; a file created gets `permissions`.
  public init(path: String, mode: Mode, permissions: mode_t = 0o644) throws {
    self.path = path
    let flags = O_WRONLY | O_CREAT | O_CLOEXEC | (mode == .append ? O_APPEND : O_TRUNC)
    descriptor = open(path, flags, permissions)
    guard descriptor >= 0 else { throw SystemError("\(path): cannot open for writing") }
  }

  deinit { close() }

  /// Writes every byte of `bytes`.
  public func write<Bytes: Sequence<UInt8>>(_ bytes: Bytes) throws {
    guard writeAll(Array(bytes), to: descriptor) else { throw SystemError("\(path): cannot write") }
  }

  /// Writes `text` as UTF-8.
  public func write(_ text: String) throws { try write(Array(text.utf8)) }

  /// Waits until what was written is on the disk (`fsync`).
  public func synchronize() { _ = fsync(descriptor) }

  public func close() {
    guard descriptor >= 0 else { return }
    _ = systemClose(descriptor)
    descriptor = -1
  }
}

/// The process's standard error, written unbuffered.
public enum StandardError {
  public static func write(_ text: String) { _ = writeAll(Array(text.utf8), to: 2) }
}

/// Writes every byte to a file descriptor, again after an interrupted call; false on an error
/// (`errno` says which).
private func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> Bool {
  bytes.withUnsafeBytes { buffer in
    var offset = 0
    while offset < buffer.count {
      let written = systemWrite(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
      if written < 0 {
        if errno == EINTR { continue }
        return false
      }
      offset += written
    }
    return true
  }
}

/// The first `count` bytes of the file at `path` (fewer when it is shorter), or nil when it
/// cannot be opened.
public func readPrefix(ofFileAt path: String, count: Int) -> [UInt8]? {
  let descriptor = open(path, O_RDONLY | O_CLOEXEC)
  guard descriptor >= 0 else { return nil }
  defer { _ = systemClose(descriptor) }
  var bytes = [UInt8](repeating: 0, count: count)
  var filled = 0
  while filled < count {
    let got = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress! + filled, count - filled) }
    if got < 0 && errno == EINTR { continue }
    if got <= 0 { break }
    filled += got
  }
  return Array(bytes.prefix(filled))
}

#if canImport(Glibc)
  private func systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int { Glibc.write(fd, buffer, count) }
  private func systemClose(_ fd: Int32) -> Int32 { Glibc.close(fd) }
#else
  private func systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int { Darwin.write(fd, buffer, count) }
  private func systemClose(_ fd: Int32) -> Int32 { Darwin.close(fd) }
#endif

/// The size in bytes of the file at `path` (`stat`), or nil when there is none to reach.
public func fileSize(atPath path: String) -> Int? {
  var status = stat()
  guard stat(path, &status) == 0 else { return nil }
  return Int(status.st_size)
}
