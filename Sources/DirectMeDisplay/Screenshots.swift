import CSDL2
import DirectMeCore
#if canImport(Glibc)
  import FoundationEssentials
  import Glibc
#else
  import Foundation
#endif

import DirectMeSystem

/// Reading the window's pixels back and writing them to files; the sprite's size from its file.
extension StageWindow {
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

extension StageWindow {
  /// The on-screen size of a BMP sprite, read from its header without SDL (for headless runs).
  public static func spriteSize(ofBMP path: String) throws -> Size {
    guard let header = readPrefix(ofFileAt: path, count: 26) else {
      throw SDLError(function: "open", message: "\(path): sprite not found or unreadable")
    }
    guard header.count == 26, header.starts(with: "BM".utf8) else {
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
