import CSDL2
import DirectMeCore
#if canImport(Glibc)
  import FoundationEssentials
  import Glibc
#else
  import Foundation
#endif

import DirectMeSystem
import Synchronization

/// An SDL call that failed, with SDL's own message.
public struct SDLError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The C function that failed.
  public var function: String
  public var message: String

  public var description: String { message }

  /// An error for `function` with `SDL_GetError()`'s text.
  static func last(_ function: String, hint: String? = nil) -> SDLError {
    let reason = String(cString: SDL_GetError())
    return SDLError(function: function, message: "\(function) failed: \(reason)" + (hint.map { "; \($0)" } ?? ""))
  }
}

/// What the user did in the window.
public enum WindowInput: Hashable, Sendable {
  /// Space, or a click on the record button.
  case toggleListening
  /// Esc, q, or the window was closed.
  case quit
  /// Another thread called `StageWindow.wake()`.
  case wake
}

/// The files the window draws with.
public struct WindowAssets: Hashable, Sendable {
  /// The ninja, a BMP; magenta (255, 0, 255) is transparent.
  public var sprite: String
  /// A TrueType font.
  public var font: String

  public init(sprite: String, font: String = WindowAssets.defaultFont) {
    self.sprite = sprite
    self.font = font
  }

  /// DejaVu Sans from Debian's `fonts-dejavu-core`.
  public static let defaultFont = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
}

/// The DirectMe window: the ninja, the record button and the transcripts, drawn from a
/// `Scene`. Everything here must run on the main thread, except `wake()`.
public final class StageWindow {
  public let size: Size
  /// The sprite's size on screen (the BMP scaled up).
  public let spriteSize: Size
  public static let spriteScale: Int32 = 2

  private let window: OpaquePointer
  let renderer: OpaquePointer
  let sprite: OpaquePointer
  let font: OpaquePointer
  let smallFont: OpaquePointer
  var textCache: [TextKey: CachedText] = [:]
  /// The stage without the ninja, drawn once (the first frame).
  var cachedBackdrop: OpaquePointer?
  /// Whether frames start from the backdrop (`false`: everything is drawn each frame, the
  /// reference the tests compare with).
  public var drawsFromBackdrop = true
  /// Whether a frame drawn from the backdrop redraws only what changed since the last frame
  /// (`false`: the whole window each frame).
  public var drawsChangesOnly = true
  /// The last frame drawn from the backdrop, with the ninja's rectangle in it; nil when the
  /// next frame must be drawn whole (none yet, or the window's pixels may be gone).
  var shown: (scene: Scene, sprite: SDL_Rect)?
  private static let wakeEvent = SDL_RegisterEvents(1)

  let buttonRect = SDL_Rect(x: 16, y: 14, w: 240, h: 46)

  /// SDL's drivers that show nothing.
  static let invisibleDrivers: Set<String> = ["offscreen", "dummy"]

  /// The driver SDL chose, `current`, when it shows nothing and was not asked for by name
  /// (`asked`: the SDL_VIDEODRIVER hint or variable, empty or nil when not set); nil otherwise.
  static func invisibleDriver(current: String?, asked: String?) -> String? {
    guard let current, invisibleDrivers.contains(current), (asked ?? "").isEmpty else { return nil }
    return current
  }

  /// Opens the window.
  ///
  /// The corresponding C functions are `SDL_Init`, `TTF_Init`, `SDL_CreateWindow`,
  /// `SDL_CreateRenderer`, `SDL_LoadBMP_RW` and `TTF_OpenFont`.
  public init(size: Size = Size(width: 800, height: 600), title: String = "DirectMe", assets: WindowAssets) throws {
    try Self.checkFile(assets.sprite, what: "sprite")
    try Self.checkFile(assets.font, what: "font", hint: "install fonts-dejavu-core, or pass another TrueType font")
    self.size = size

    if SDL_InitSubSystem(Self.subsystems) != 0 {
      throw SDLError.last(
        "SDL_Init", hint: "no display? set DISPLAY (or SDL_VIDEODRIVER=dummy), or run with --headless")
    }
    // With no display to reach, SDL (Debian's 2.26) falls back to its offscreen driver: a window no
    // one sees, whose button no one can press. Only a driver asked for by name is taken so.
    let current = SDL_GetCurrentVideoDriver().map { String(cString: $0) }
    if let driver = Self.invisibleDriver(current: current, asked: SDL_GetHint("SDL_VIDEODRIVER").map { String(cString: $0) }) {
      SDL_QuitSubSystem(Self.subsystems)
      throw SDLError(
        function: "SDL_Init",
        message: "no display to open the window on (SDL fell back to its \(driver) driver): set DISPLAY, "
          + "or run with --headless (SDL_VIDEODRIVER=dummy draws without showing it)")
    }
    // A failure from here on undoes what was set up, SDL_Init included.
    var undo: [() -> Void] = [{ SDL_QuitSubSystem(Self.subsystems) }]
    func fail(_ error: SDLError) -> SDLError {
      undo.reversed().forEach { $0() }
      return error
    }
    // Both are counted: each window's init is undone by its deinit.
    guard TTF_Init() == 0 else { throw fail(SDLError.last("TTF_Init")) }
    undo.append { TTF_Quit() }
    guard
      let window = SDL_CreateWindow(
        title, Int32(bitPattern: 0x2FFF_0000), Int32(bitPattern: 0x2FFF_0000), Int32(size.width),
        Int32(size.height), SDL_WINDOW_SHOWN.rawValue)
    else {
      throw fail(SDLError.last("SDL_CreateWindow", hint: "no display? run with --headless"))
    }
    self.window = window
    undo.append { SDL_DestroyWindow(window) }
    // The software renderer everywhere: the scene is small, and it reads back exactly.
    guard let renderer = SDL_CreateRenderer(window, -1, SDL_RENDERER_SOFTWARE.rawValue) else {
      throw fail(SDLError.last("SDL_CreateRenderer"))
    }
    self.renderer = renderer
    undo.append { SDL_DestroyRenderer(renderer) }
    SDL_SetRenderDrawBlendMode(renderer, SDL_BLENDMODE_BLEND)

    guard let surface = SDL_LoadBMP_RW(SDL_RWFromFile(assets.sprite, "rb"), 1) else {
      throw fail(SDLError.last("SDL_LoadBMP_RW", hint: "is \(assets.sprite) a BMP?"))
    }
    SDL_SetColorKey(surface, 1, SDL_MapRGB(surface.pointee.format, 255, 0, 255))
    spriteSize = Size(
      width: Int(surface.pointee.w * Self.spriteScale), height: Int(surface.pointee.h * Self.spriteScale))
    // Scaled once, here: a frame copies it 1:1 (a scaled copy that is clipped samples
    // differently from one that is not, and frames clip it under the panels).
    let texture = Self.scaled(surface, by: Self.spriteScale).flatMap { scaled in
      defer { SDL_FreeSurface(scaled) }
      return SDL_CreateTextureFromSurface(renderer, scaled)
    }
    SDL_FreeSurface(surface)
    guard let texture else {
      throw fail(SDLError.last("SDL_CreateTextureFromSurface"))
    }
    sprite = texture
    undo.append { SDL_DestroyTexture(texture) }
    guard let font = TTF_OpenFont(assets.font, 20) else {
      throw fail(SDLError.last("TTF_OpenFont", hint: "is \(assets.font) a TrueType font?"))
    }
    undo.append { TTF_CloseFont(font) }
    guard let smallFont = TTF_OpenFont(assets.font, 16) else {
      throw fail(SDLError.last("TTF_OpenFont", hint: "is \(assets.font) a TrueType font?"))
    }
    self.font = font
    self.smallFont = smallFont
    Self.openWindows.withLock { $0 += 1 }
  }

  /// The window's pixel format, the backdrop's too (copied, not converted).
  var pixelFormat: UInt32 { SDL_GetWindowPixelFormat(window) }

  deinit {
    // No wake() may push an event while SDL shuts down.
    Self.openWindows.withLock { $0 -= 1 }
    if let cachedBackdrop { SDL_DestroyTexture(cachedBackdrop) }
    for cached in textCache.values { SDL_DestroyTexture(cached.texture) }
    TTF_CloseFont(font)
    TTF_CloseFont(smallFont)
    SDL_DestroyTexture(sprite)
    SDL_DestroyRenderer(renderer)
    SDL_DestroyWindow(window)
    TTF_Quit()
    SDL_QuitSubSystem(Self.subsystems)
  }

  /// `surface` scaled `factor` times (nearest neighbour), its colour key turned into alpha.
  ///
  /// The corresponding C functions are `SDL_ConvertSurfaceFormat` and `SDL_UpperBlitScaled` (`SDL_BlitScaled`).
  private static func scaled(_ surface: UnsafeMutablePointer<SDL_Surface>, by factor: Int32) -> UnsafeMutablePointer<SDL_Surface>? {
    guard let converted = SDL_ConvertSurfaceFormat(surface, SDL_PIXELFORMAT_ARGB8888.rawValue, 0) else { return nil }
    defer { SDL_FreeSurface(converted) }
    guard
      let scaled = SDL_CreateRGBSurfaceWithFormat(
        0, converted.pointee.w * factor, converted.pointee.h * factor, 32, SDL_PIXELFORMAT_ARGB8888.rawValue)
    else { return nil }
    SDL_SetSurfaceBlendMode(converted, SDL_BLENDMODE_NONE)
    guard SDL_UpperBlitScaled(converted, nil, scaled, nil) == 0 else {
      SDL_FreeSurface(scaled)
      return nil
    }
    SDL_SetSurfaceBlendMode(scaled, SDL_BLENDMODE_BLEND)
    return scaled
  }

  private static let subsystems = UInt32(SDL_INIT_VIDEO | SDL_INIT_EVENTS)

  /// Whether SDL's video is up (a window is open, or one was not closed properly).
  static var isVideoUp: Bool { SDL_WasInit(UInt32(SDL_INIT_VIDEO)) != 0 }

  private static func checkFile(_ path: String, what: String, hint: String? = nil) throws {
    guard FileManager.default.isReadableFile(atPath: path) else {
      throw SDLError(function: "open", message: "\(path): \(what) not found or unreadable" + (hint.map { "; \($0)" } ?? ""))
    }
  }

  // MARK: Events

  /// Wakes a thread blocked in `waitForInput`; safe from any thread.
  public static func wake() {
    openWindows.withLock { open in
      guard open > 0 else { return }
      var event = SDL_Event()
      event.type = wakeEvent
      SDL_PushEvent(&event)
    }
    wakeSignal.condition.lock()
    wakeSignal.woken = true
    wakeSignal.condition.signal()
    wakeSignal.condition.unlock()
  }

  /// What `wake()` signals to a `waitForInput` that polls: `woken`, under `condition`.
  private final class WakeSignal: @unchecked Sendable {
    let condition = Condition()
    var woken = false
  }
  private static let wakeSignal = WakeSignal()

  /// Whether SDL's video driver waits for events itself (X11, Wayland, ...). Others (the
  /// dummy and offscreen drivers) make SDL_WaitEventTimeout look every millisecond, a
  /// thousand wake-ups a second: 2-3% of a core while nothing happens.
  private static var driverWaits: Bool {
    guard let name = SDL_GetCurrentVideoDriver() else { return false }
    return ["x11", "wayland", "windows", "cocoa"].contains(String(cString: name))
  }

  /// How often `waitForInput` looks at the window's events when the driver cannot wait for
  /// them (seconds); `wake()` ends the wait at once.
  static let pollInterval = 0.05

  /// How many windows are open; wake() pushes events only while one is (SDL is up).
  static let openWindows = Mutex(0)

  /// Waits up to `timeout` seconds (forever with `nil`) for something to happen, then
  /// returns everything that has.
  public func waitForInput(timeout: Double?) -> [WindowInput] {
    var inputs: [WindowInput] = []
    var event = SDL_Event()
    guard !Self.driverWaits else {
      let milliseconds = timeout.map { Int32(max(0, min($0, 3600)) * 1000) } ?? -1
      guard SDL_WaitEventTimeout(&event, milliseconds) != 0 else { return inputs }
      repeat {
        if let input = translate(event) { inputs.append(input) }
      } while SDL_PollEvent(&event) != 0
      return inputs
    }
    let deadline = timeout.map { Date(timeIntervalSinceNow: max(0, min($0, 3600))) }
    while true {
      while SDL_PollEvent(&event) != 0 {
        if let input = translate(event) { inputs.append(input) }
      }
      let signal = Self.wakeSignal
      signal.condition.lock()
      if signal.woken {
        signal.woken = false
        inputs.append(.wake)
      }
      let now = Date()
      if !inputs.isEmpty || deadline.map({ now >= $0 }) == true {
        signal.condition.unlock()
        return inputs
      }
      _ = signal.condition.wait(seconds: min(deadline?.timeIntervalSince(now) ?? Self.pollInterval, Self.pollInterval))
      signal.condition.unlock()
    }
  }

  private func translate(_ event: SDL_Event) -> WindowInput? {
    switch event.type {
    case SDL_QUIT.rawValue:
      return .quit
    case SDL_KEYDOWN.rawValue where event.key.repeat == 0:
      switch event.key.keysym.sym {
      case Int32(SDLK_ESCAPE.rawValue), Int32(SDLK_q.rawValue): return .quit
      case Int32(SDLK_SPACE.rawValue): return .toggleListening
      default: return nil
      }
    case SDL_MOUSEBUTTONDOWN.rawValue where event.button.button == UInt8(SDL_BUTTON_LEFT):
      var point = SDL_Point(x: event.button.x, y: event.button.y)
      var rect = buttonRect
      return SDL_PointInRect(&point, &rect) == SDL_TRUE ? .toggleListening : nil
    case Self.wakeEvent:
      return .wake
    case SDL_WINDOWEVENT.rawValue:
      // Exposed, resized: the next frame is drawn whole, in case SDL made the window a new
      // surface.
      shown = nil
      return .wake
    default:
      return nil
    }
  }
}

extension Direction {
  /// An arrow for the direction.
  public var arrow: String {
    switch self {
    case .up: "\u{2191}"
    case .down: "\u{2193}"
    case .left: "\u{2190}"
    case .right: "\u{2192}"
    }
  }
}
