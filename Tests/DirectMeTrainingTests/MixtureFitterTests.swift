import DirectMeCore
import Foundation
import Testing

@testable import DirectMeTraining

@Suite("Fitting a mixture of Gaussians")
struct MixtureFitterTests {
  @Test("two clusters give two components at their means and spreads, the same each time")
  func twoClusters() {
    var random = Signal.Random(seed: 9)
    let vectors = (0..<4_000).map { index -> [Double] in
      let (mean, spread) = index % 4 == 0 ? (5.0, 0.5) : (-1.0, 1.0)
      return (0..<3).map { _ in mean + spread * Signal.gaussian(&random) }
    }
    var fitter = MixtureFitter()
    fitter.components = 2
    fitter.iterations = 30
    let mixture = fitter.fit(vectors, dimensions: 3)
    let order = mixture.means[0][0] > mixture.means[1][0] ? [0, 1] : [1, 0]
    let (high, low) = (order[0], order[1])
    #expect(abs(mixture.weights[high] - 0.25) < 0.02 && abs(mixture.weights[low] - 0.75) < 0.02, "\(mixture.weights)")
    for d in 0..<3 {
      #expect(abs(mixture.means[high][d] - 5) < 0.1 && abs(mixture.means[low][d] + 1) < 0.1)
      #expect(abs(mixture.variances[high][d] - 0.25) < 0.05 && abs(mixture.variances[low][d] - 1) < 0.1)
    }
    #expect(fitter.fit(vectors, dimensions: 3) == mixture)
  }
}
