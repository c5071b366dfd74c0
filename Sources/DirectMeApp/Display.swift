import DirectMeCore
import DirectMeDisplay

/// What the user did at the display.
public enum DisplayInput: Hashable, Sendable {
  /// Space, or a click on the record button.
  case toggleListening
  /// Esc, q, or the window was closed.
  case quit
  /// Another thread asked the display to look at its events.
  case wake
}

/// What the stage loop needs of a screen, as closures: SDL's window (`window`), none
/// (`headless`: positions are printed instead), or a fake in tests.
public struct Display {
  /// The stage's size, and the sprite's on it.
  public var size: Size
  public var spriteSize: Size
  /// There is a window to draw in and to take input from (false: headless).
  public var isWindow: Bool
  /// Waits up to `timeout` seconds (`nil`: until something happens) for the user's input.
  public var waitForInput: (_ timeout: Double?) -> [DisplayInput]
  public var draw: (Scene) -> Void
  /// Makes `waitForInput` return soon; callable from any thread.
  public var wake: @Sendable () -> Void
  /// Writes the pixels last drawn to a file.
  public var saveScreenshot: (_ path: String) throws -> Void

  public init(
    size: Size, spriteSize: Size, isWindow: Bool, waitForInput: @escaping (Double?) -> [DisplayInput],
    draw: @escaping (Scene) -> Void, wake: @escaping @Sendable () -> Void,
    saveScreenshot: @escaping (String) throws -> Void
  ) {
    self.size = size
    self.spriteSize = spriteSize
    self.isWindow = isWindow
    self.waitForInput = waitForInput
    self.draw = draw
    self.wake = wake
    self.saveScreenshot = saveScreenshot
  }

  /// An SDL window of `size` drawing the BMP `sprite`.
  public static func window(size: Size, sprite: String) throws -> Display {
    let window = try StageWindow(size: size, assets: WindowAssets(sprite: sprite))
    return Display(
      size: size, spriteSize: window.spriteSize, isWindow: true,
      waitForInput: { timeout in
        window.waitForInput(timeout: timeout).map { input in
          switch input {
          case .toggleListening: .toggleListening
          case .quit: .quit
          case .wake: .wake
          }
        }
      },
      draw: { window.draw($0) }, wake: { StageWindow.wake() },
      saveScreenshot: { try window.saveScreenshot(to: $0) })
  }

  /// No window: the sprite's size is read from the BMP's header, nothing is drawn.
  public static func headless(size: Size, sprite: String) throws -> Display {
    try headless(size: size, spriteSize: StageWindow.spriteSize(ofBMP: sprite))
  }

  public static func headless(size: Size, spriteSize: Size) -> Display {
    Display(
      size: size, spriteSize: spriteSize, isWindow: false, waitForInput: { _ in [] }, draw: { _ in }, wake: {},
      saveScreenshot: { path in throw Failure("\(path): no window to take a screenshot of (headless)") })
  }
}
