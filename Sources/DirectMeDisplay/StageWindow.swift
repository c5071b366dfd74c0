import CSDL2
import DirectMeCore
import Foundation
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
  private let renderer: OpaquePointer
  private let sprite: OpaquePointer
  private let font: OpaquePointer
  private let smallFont: OpaquePointer
  private var textCache: [TextKey: CachedText] = [:]
  private static let wakeEvent = SDL_RegisterEvents(1)

  private let buttonRect = SDL_Rect(x: 16, y: 14, w: 240, h: 46)

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
    let texture = SDL_CreateTextureFromSurface(renderer, surface)
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

  deinit {
    // No wake() may push an event while SDL shuts down.
    Self.openWindows.withLock { $0 -= 1 }
    for cached in textCache.values { SDL_DestroyTexture(cached.texture) }
    TTF_CloseFont(font)
    TTF_CloseFont(smallFont)
    SDL_DestroyTexture(sprite)
    SDL_DestroyRenderer(renderer)
    SDL_DestroyWindow(window)
    TTF_Quit()
    SDL_QuitSubSystem(Self.subsystems)
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
  }

  /// How many windows are open; wake() pushes events only while one is (SDL is up).
  static let openWindows = Mutex(0)

  /// Waits up to `timeout` seconds (forever with `nil`) for something to happen, then
  /// returns everything that has.
  public func waitForInput(timeout: Double?) -> [WindowInput] {
    var inputs: [WindowInput] = []
    var event = SDL_Event()
    let milliseconds = timeout.map { Int32(max(0, min($0, 3600)) * 1000) } ?? -1
    guard SDL_WaitEventTimeout(&event, milliseconds) != 0 else { return inputs }
    repeat {
      if let input = translate(event) { inputs.append(input) }
    } while SDL_PollEvent(&event) != 0
    return inputs
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
      return .wake  // exposed or resized: redraw
    default:
      return nil
    }
  }

  // MARK: Drawing

  /// Draws `scene` and shows it.
  public func draw(_ scene: Scene) {
    setColor(236, 240, 244)
    SDL_RenderClear(renderer)
    drawGrid()

    // The ninja, under the panels' text but above the background.
    let half = (w: Int32(spriteSize.width / 2), h: Int32(spriteSize.height / 2))
    var spriteRect = SDL_Rect(
      x: Int32(scene.spritePosition.x.rounded()) - half.w, y: Int32(scene.spritePosition.y.rounded()) - half.h,
      w: Int32(spriteSize.width), h: Int32(spriteSize.height))
    SDL_RenderCopy(renderer, sprite, nil, &spriteRect)

    drawTopBar(scene)
    drawBottomPanel(scene)
    SDL_RenderPresent(renderer)
  }

  private func drawGrid() {
    setColor(222, 228, 234)
    let step = 50
    for x in stride(from: 0, through: size.width, by: step) {
      SDL_RenderDrawLine(renderer, Int32(x), 0, Int32(x), Int32(size.height))
    }
    for y in stride(from: 0, through: size.height, by: step) {
      SDL_RenderDrawLine(renderer, 0, Int32(y), Int32(size.width), Int32(y))
    }
  }

  private func drawTopBar(_ scene: Scene) {
    fill(SDL_Rect(x: 0, y: 0, w: Int32(size.width), h: 74), 255, 255, 255, 215)
    let listening = scene.isListening
    if listening {
      fill(buttonRect, 214, 48, 49)
    } else {
      fill(buttonRect, 39, 174, 96)
    }
    let label = listening ? "End Recording" : "Record Directions"
    drawText(label, font: font, color: (255, 255, 255), centredIn: buttonRect)
    if let level = scene.level {
      let width = Int32(Double(buttonRect.w) * min(1, max(0, level)))
      fill(SDL_Rect(x: buttonRect.x, y: buttonRect.y + buttonRect.h + 2, w: width, h: 4), 52, 73, 94)
    }
    let x = buttonRect.x + buttonRect.w + 18
    if let status = scene.status {
      drawText(status, font: smallFont, color: (192, 57, 43), at: (x, 16))
    } else {
      let hint = listening ? "Listening... say \"up\", \"move left\", \"down down right\"" : "Press Space or click to give directions"
      drawText(hint, font: smallFont, color: (90, 100, 110), at: (x, 16))
    }
    if !scene.partial.isEmpty {
      drawText("hearing: \(scene.partial)", font: smallFont, color: (120, 120, 120), at: (x, 40))
    } else if listening {
      drawText("hearing: ...", font: smallFont, color: (170, 170, 170), at: (x, 40))
    }
  }

  private func drawBottomPanel(_ scene: Scene) {
    let top = Int32(size.height) - 96
    fill(SDL_Rect(x: 0, y: top, w: Int32(size.width), h: 96), 255, 255, 255, 215)
    guard !scene.lastTranscript.isEmpty || scene.rejection != nil else {
      drawText("Directions will appear here.", font: smallFont, color: (150, 150, 150), at: (16, top + 12))
      return
    }
    let heard = scene.lastTranscript.isEmpty ? "(nothing)" : "\u{201C}\(scene.lastTranscript)\u{201D}"
    drawText("Heard: \(heard)", font: font, color: (44, 62, 80), at: (16, top + 10))
    if let rejection = scene.rejection {
      drawText("Rejected: \(rejection)", font: smallFont, color: (192, 57, 43), at: (16, top + 40))
    } else {
      let moves = scene.lastInstructions.map(\.arrow).joined(separator: " ")
      let names = scene.lastInstructions.map(\.rawValue).joined(separator: " ")
      drawText("Directions: \(names)  \(moves)", font: smallFont, color: (39, 120, 70), at: (16, top + 40))
    }
    if !scene.rescues.isEmpty {
      drawText("Rescued: " + scene.rescues.joined(separator: ", "), font: smallFont, color: (211, 84, 0), at: (16, top + 64))
    }
  }

  private func setColor(_ r: UInt8, _ g: UInt8, _ b: UInt8, _ a: UInt8 = 255) {
    SDL_SetRenderDrawColor(renderer, r, g, b, a)
  }

  private func fill(_ rect: SDL_Rect, _ r: UInt8, _ g: UInt8, _ b: UInt8, _ a: UInt8 = 255) {
    setColor(r, g, b, a)
    var rect = rect
    SDL_RenderFillRect(renderer, &rect)
  }

  private struct TextKey: Hashable {
    var text: String
    var large: Bool
    var r: UInt8, g: UInt8, b: UInt8
  }

  private struct CachedText {
    var texture: OpaquePointer
    var width: Int32
    var height: Int32
  }

  private func texture(for text: String, font: OpaquePointer, color: (UInt8, UInt8, UInt8)) -> CachedText? {
    let key = TextKey(text: text, large: font == self.font, r: color.0, g: color.1, b: color.2)
    if let cached = textCache[key] { return cached }
    if textCache.count > 64 {
      for cached in textCache.values { SDL_DestroyTexture(cached.texture) }
      textCache.removeAll()
    }
    guard let surface = TTF_RenderUTF8_Blended(font, text, SDL_Color(r: color.0, g: color.1, b: color.2, a: 255))
    else { return nil }
    defer { SDL_FreeSurface(surface) }
    guard let texture = SDL_CreateTextureFromSurface(renderer, surface) else { return nil }
    let cached = CachedText(texture: texture, width: surface.pointee.w, height: surface.pointee.h)
    textCache[key] = cached
    return cached
  }

  private func drawText(_ text: String, font: OpaquePointer, color: (UInt8, UInt8, UInt8), at origin: (Int32, Int32)) {
    guard !text.isEmpty, let cached = texture(for: text, font: font, color: color) else { return }
    let maxWidth = Int32(size.width) - origin.0 - 8
    var source = SDL_Rect(x: 0, y: 0, w: min(cached.width, maxWidth), h: cached.height)
    var target = SDL_Rect(x: origin.0, y: origin.1, w: source.w, h: cached.height)
    SDL_RenderCopy(renderer, cached.texture, &source, &target)
  }

  private func drawText(_ text: String, font: OpaquePointer, color: (UInt8, UInt8, UInt8), centredIn rect: SDL_Rect) {
    guard let cached = texture(for: text, font: font, color: color) else { return }
    var target = SDL_Rect(
      x: rect.x + (rect.w - cached.width) / 2, y: rect.y + (rect.h - cached.height) / 2, w: cached.width,
      h: cached.height)
    SDL_RenderCopy(renderer, cached.texture, nil, &target)
  }

  // MARK: Pixels

  /// The pixels last drawn.
  ///
  /// The corresponding C function is `SDL_RenderReadPixels`.
  public func capturePixels() throws -> Image {
    var pixels = [UInt8](repeating: 0, count: size.width * size.height * 4)
    let status = pixels.withUnsafeMutableBytes {
      SDL_RenderReadPixels(
        renderer, nil, SDL_PIXELFORMAT_ABGR8888.rawValue, $0.baseAddress, Int32(size.width * 4))
    }
    if status != 0 { throw SDLError.last("SDL_RenderReadPixels") }
    return Image(width: size.width, height: size.height, pixels: pixels)
  }

  /// Writes the pixels last drawn to `path`: PNG for a `.png` name, BMP otherwise.
  public func saveScreenshot(to path: String) throws {
    try Self.save(try capturePixels(), to: path)
  }

  /// Writes `image` as PNG (`.png`, through SDL2_image) or BMP (anything else), atomically:
  /// to a temporary file renamed into place.
  ///
  /// The corresponding C functions are `IMG_SavePNG` and `SDL_SaveBMP_RW`.
  public static func save(_ image: Image, to path: String) throws {
    let isPNG = URL(fileURLWithPath: path).pathExtension.lowercased() == "png"
    let temporary = path + ".part-\(getpid())"
    var pixels = image.pixels
    try pixels.withUnsafeMutableBytes { bytes in
      guard
        let surface = SDL_CreateRGBSurfaceWithFormatFrom(
          bytes.baseAddress, Int32(image.width), Int32(image.height), 32, Int32(image.width * 4),
          SDL_PIXELFORMAT_ABGR8888.rawValue)
      else { throw SDLError.last("SDL_CreateRGBSurfaceWithFormatFrom") }
      defer { SDL_FreeSurface(surface) }
      let status: Int32
      if isPNG {
        status = IMG_SavePNG(surface, temporary)
      } else if let file = SDL_RWFromFile(temporary, "wb") {
        status = SDL_SaveBMP_RW(surface, file, 1)
      } else {
        status = -1
      }
      if status != 0 {
        let reason = String(cString: SDL_GetError())
        try? FileManager.default.removeItem(atPath: temporary)
        throw SDLError(function: isPNG ? "IMG_SavePNG" : "SDL_SaveBMP_RW", message: "\(path): cannot write the screenshot (\(reason))")
      }
    }
    guard rename(temporary, path) == 0 else {
      let reason = String(cString: strerror(errno))
      try? FileManager.default.removeItem(atPath: temporary)
      throw SDLError(function: "rename", message: "\(path): cannot write the screenshot (\(reason))")
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

extension StageWindow {
  /// The on-screen size of a BMP sprite, read from its header without SDL (for headless runs).
  public static func spriteSize(ofBMP path: String) throws -> Size {
    guard let handle = FileHandle(forReadingAtPath: path) else {
      throw SDLError(function: "open", message: "\(path): sprite not found or unreadable")
    }
    defer { try? handle.close() }
    let header = (try? handle.read(upToCount: 26)) ?? Data()
    guard header.count == 26, header.prefix(2) == Data("BM".utf8) else {
      throw SDLError(function: "open", message: "\(path): not a BMP file")
    }
    func int32(_ offset: Int) -> Int32 {
      Int32(bitPattern: UInt32(header[offset]) | UInt32(header[offset + 1]) << 8 | UInt32(header[offset + 2]) << 16 | UInt32(header[offset + 3]) << 24)
    }
    let width = Int(int32(18))
    let height = Int(abs(int32(22)))
    guard width > 0, height > 0, width <= 4096, height <= 4096 else {
      throw SDLError(function: "open", message: "\(path): bad BMP size \(width)x\(height)")
    }
    return Size(width: width * Int(spriteScale), height: height * Int(spriteScale))
  }
}
