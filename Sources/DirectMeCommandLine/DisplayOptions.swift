import ArgumentParser
import DirectMeApp
import DirectMeCore
#if canImport(Glibc)
  import FoundationEssentials
  import Glibc
#else
  import Foundation
#endif

/// How the ninja is shown.
public struct DisplayOptions: ParsableArguments {
  public init() {}

  @Flag(help: "No window: print the ninja's position after each instruction.")
  public var headless = false

  @Option(help: ArgumentHelp("Write the window's pixels to this .png or .bmp file when the run ends.", valueName: "file"))
  public var screenshot: String?

  @Option(help: "Pixels the ninja moves per instruction.")
  public var step: Int = 100

  @Option(help: ArgumentHelp("Window size.", valueName: "WIDTHxHEIGHT"))
  public var size: String = "800x600"

  @Option(help: ArgumentHelp("The ninja sprite, a BMP (default: Assets/ninja.bmp).", valueName: "file"))
  public var sprite: String?

  public func validate() throws {
    guard windowSize != nil else { throw ValidationError("--size must look like 800x600 (got '\(size)')") }
    guard step > 0, step <= 10_000 else { throw ValidationError("--step must be between 1 and 10000 (got \(step))") }
    if let screenshot {
      let folder = URL(fileURLWithPath: screenshot).deletingLastPathComponent().path
      guard FileManager.default.isWritableFile(atPath: folder) else {
        throw ValidationError("cannot write the screenshot into \(folder)")
      }
      if headless { throw ValidationError("--screenshot needs the window; drop --headless") }
    }
  }

  public var windowSize: Size? {
    let parts = size.lowercased().split(separator: "x")
    guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]),
      (160...8192).contains(width), (120...8192).contains(height)
    else { return nil }
    return Size(width: width, height: height)
  }

  public var spritePath: String { sprite ?? Resources.defaultSprite }

  /// The window, or the headless stand-in with `--headless`.
  public func makeDisplay() throws -> Display {
    let size = windowSize ?? Size(width: 800, height: 600)
    return headless ? try .headless(size: size, sprite: spritePath) : try .window(size: size, sprite: spritePath)
  }

  /// Stage settings from these options.
  public func settings(
    listening: Bool, pushToTalk: Bool = false, duration: Double? = nil, timingLog: TimingLog? = nil
  ) -> StageSettings {
    StageSettings(
      step: Double(step), listening: listening, pushToTalk: pushToTalk, duration: duration, screenshot: screenshot,
      timingLog: timingLog)
  }
}
