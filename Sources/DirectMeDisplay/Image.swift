/// An RGBA image, 8 bits a channel, rows top to bottom.
public struct Image: Hashable, Sendable {
  public var width: Int
  public var height: Int
  /// `width * height * 4` bytes: R, G, B, A.
  public var pixels: [UInt8]

  public init(width: Int, height: Int, pixels: [UInt8]) {
    precondition(pixels.count == width * height * 4, "RGBA pixel count does not match the size")
    self.width = width
    self.height = height
    self.pixels = pixels
  }

  /// The colour at (x, y).
  public subscript(x: Int, y: Int) -> (r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
    let offset = (y * width + x) * 4
    return (pixels[offset], pixels[offset + 1], pixels[offset + 2], pixels[offset + 3])
  }
}
