#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Runs `body` on a thread of its own (as Foundation's `Thread { }.start()`), detached: it
/// ends when `body` returns. `stackSize`: in bytes (nil: the system's default, 8 MB on Linux).
public func startThread(stackSize: Int? = nil, _ body: @escaping @Sendable () -> Void) {
  final class Box: @unchecked Sendable {
    let body: @Sendable () -> Void
    init(_ body: @escaping @Sendable () -> Void) { self.body = body }
  }
  let context = Unmanaged.passRetained(Box(body)).toOpaque()
  #if canImport(Glibc)
    var thread = pthread_t()
  #else
    var thread: pthread_t?
  #endif
  var attributes = pthread_attr_t()
  pthread_attr_init(&attributes)
  defer { pthread_attr_destroy(&attributes) }
  if let stackSize { pthread_attr_setstacksize(&attributes, stackSize) }
  let created = pthread_create(
    &thread, &attributes,
    { context in
      let box = Unmanaged<Box>.fromOpaque(context!).takeRetainedValue()
      box.body()
      return nil
    }, context)
  guard created == 0 else {
    Unmanaged<Box>.fromOpaque(context).release()
    fatalError("pthread_create failed (\(String(cString: strerror(created))))")
  }
  #if canImport(Glibc)
    pthread_detach(thread)
  #else
    pthread_detach(thread!)
  #endif
}
