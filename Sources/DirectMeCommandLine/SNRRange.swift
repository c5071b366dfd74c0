import ArgumentParser

/// A range of signal-to-noise ratios in dB, given as LOW:HIGH.
public struct SNRRange: ExpressibleByArgument, Sendable {
  public var range: ClosedRange<Double>

  public init?(argument: String) {
    let parts = argument.split(separator: ":").compactMap { Double($0) }
    guard parts.count == 2, parts[0] <= parts[1] else { return nil }
    range = parts[0]...parts[1]
  }

  public var defaultValueDescription: String { "\(Int(range.lowerBound)):\(Int(range.upperBound))" }
}
