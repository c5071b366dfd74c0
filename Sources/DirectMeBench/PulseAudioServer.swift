import Foundation

/// A private PulseAudio daemon, with a virtual microphone fed from a FIFO
/// (module-pipe-source), for tests and benchmarks. Nothing outside its own folder is touched.
public final class PulseAudioServer: @unchecked Sendable {
  public let folder: URL
  /// The address for `PULSE_SERVER`.
  public let server: String
  /// The virtual microphone's source name.
  public let source = "directme_test_mic"
  public let fifo: URL
  private let config: URL
  private var pid: pid_t = 0

  public static var isAvailable: Bool { Tools.which("pulseaudio") != nil && Tools.which("pactl") != nil }

  public init() throws {
    folder = FileManager.default.temporaryDirectory.appendingPathComponent("directme-pulse-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let socket = folder.appendingPathComponent("native")
    fifo = folder.appendingPathComponent("mic.fifo")
    server = "unix:" + socket.path
    let script = """
      load-module module-native-protocol-unix auth-anonymous=1 socket=\(socket.path)
      load-module module-pipe-source source_name=\(source) file=\(fifo.path) format=s16le rate=16000 channels=1
      set-default-source \(source)
      load-module module-null-sink sink_name=directme_test_sink
      """
    let config = folder.appendingPathComponent("test.pa")
    try script.write(to: config, atomically: true, encoding: .utf8)
    try FileManager.default.createDirectory(
      at: folder.appendingPathComponent("runtime"), withIntermediateDirectories: true)
    self.config = config
    try launch()
  }

  /// Starts the daemon and waits until it answers and the FIFO exists.
  private func launch() throws {
    // A FIFO left by a killed daemon would keep module-pipe-source from loading.
    try? FileManager.default.removeItem(at: fifo)
    let runtime = folder.appendingPathComponent("runtime")
    var environment = ProcessInfo.processInfo.environment
    environment["HOME"] = folder.path
    environment["XDG_RUNTIME_DIR"] = runtime.path
    environment["XDG_CONFIG_HOME"] = folder.appendingPathComponent("config").path
    environment.removeValue(forKey: "PULSE_SERVER")
    // posix_spawn, not Foundation's Process: pulseaudio closes every inherited descriptor
    // at start, which Process on Linux takes for the child's exit and then blocks waiting.
    pid = try spawn(
      Tools.which("pulseaudio") ?? "/usr/bin/pulseaudio",
      [
        "-n", "--daemonize=no", "--exit-idle-time=-1", "--disallow-exit", "--use-pid-file=no",
        "--log-target=file:\(folder.appendingPathComponent("pulse.log").path)", "-F", config.path,
      ],
      environment: environment)

    // Ready once the FIFO exists and the server answers.
    let deadline = Date(timeIntervalSinceNow: 10)
    while Date() < deadline {
      if FileManager.default.fileExists(atPath: fifo.path),
        (try? Tools.run(["pactl", "--server", server, "info"])) != nil
      {
        return
      }
      Thread.sleep(forTimeInterval: 0.05)
    }
    stop()
    throw Tools.Failure(description: "PulseAudio did not start (see \(folder.path)/pulse.log)")
  }

  /// Starts the daemon again after `stop`, on the same socket and FIFO: the source comes back.
  public func restart() throws {
    stop()
    try launch()
  }

  /// Kills the daemon, as if the server crashed.
  public func stop() {
    guard pid > 0 else { return }
    kill(pid, SIGKILL)
    var status: Int32 = 0
    waitpid(pid, &status, 0)
    pid = 0
  }

  deinit {
    stop()
    try? FileManager.default.removeItem(at: folder)
  }

  /// Plays 16 kHz mono 16-bit samples into the virtual microphone at real-time pace,
  /// 10 ms at a time. Blocks until done. `written` is told, after each chunk, how many
  /// samples have gone into the FIFO and when (wall clock, seconds since 1970).
  ///
  /// module-pipe-source reads the FIFO only while a program records from it: once the FIFO
  /// is full (about 2 s of audio) a write waits for one. After `patience` seconds without
  /// one, it throws (the program that was recording stopped), rather than wait for ever.
  public func play(_ samples: [Int16], patience: Double = 20, written: ((Int, Double) -> Void)? = nil) throws {
    let descriptor = open(fifo.path, O_WRONLY | O_NONBLOCK)
    guard descriptor >= 0 else {
      throw Tools.Failure(description: "cannot open \(fifo.path): \(String(cString: strerror(errno)))")
    }
    defer { close(descriptor) }
    let chunk = 160
    let start = Date()
    var index = 0
    while index < samples.count {
      let end = min(index + chunk, samples.count)
      try samples[index..<end].withUnsafeBytes { bytes in
        var offset = 0
        while offset < bytes.count {
          let count = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
          if count >= 0 {
            offset += count
            continue
          }
          guard errno == EAGAIN || errno == EINTR else {
            throw Tools.Failure(description: "cannot write to \(fifo.path): \(String(cString: strerror(errno)))")
          }
          var ready = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
          if errno == EAGAIN, poll(&ready, 1, Int32(patience * 1000)) == 0 {
            throw Tools.Failure(
              description: "the virtual microphone \(source) was not read for \(Int(patience)) s: nothing is recording from it")
          }
        }
      }
      index = end
      written?(index, Date().timeIntervalSince1970)
      let due = start.addingTimeInterval(Double(index) / 16000)
      let wait = due.timeIntervalSinceNow
      if wait > 0 { Thread.sleep(forTimeInterval: wait) }
    }
  }
}

/// Starts `path` with `arguments` and `environment`; stdin, stdout and stderr go to /dev/null.
public func spawn(_ path: String, _ arguments: [String], environment: [String: String]) throws -> pid_t {
  var actions = posix_spawn_file_actions_t()
  posix_spawn_file_actions_init(&actions)
  defer { posix_spawn_file_actions_destroy(&actions) }
  for descriptor in [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO] {
    posix_spawn_file_actions_addopen(&actions, descriptor, "/dev/null", descriptor == STDIN_FILENO ? O_RDONLY : O_WRONLY, 0)
  }
  let argv = ([path] + arguments).map { strdup($0) } + [nil]
  let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
  defer {
    argv.forEach { free($0) }
    envp.forEach { free($0) }
  }
  var pid: pid_t = 0
  let status = posix_spawn(&pid, path, &actions, nil, argv, envp)
  guard status == 0 else {
    throw Tools.Failure(description: "cannot start \(path): \(String(cString: strerror(status)))")
  }
  return pid
}
