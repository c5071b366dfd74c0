// swift-tools-version:6.0
import PackageDescription

let package = Package(
  name: "DirectMe",
  platforms: [.macOS(.v14)],
  products: [
    .executable(name: "directme", targets: ["directme"]),
    .executable(name: "directme-bench", targets: ["directme-bench"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
  ],
  targets: [
    // C libraries: a module map and a shim header each, nothing else (and two C targets of
    // our own below, the senone scorer and the list nodes).
    .systemLibrary(
      name: "CPocketSphinx",
      pkgConfig: "pocketsphinx",
      providers: [.apt(["libpocketsphinx-dev", "libsphinxbase-dev"])]
    ),
    .systemLibrary(
      name: "CPulse",
      pkgConfig: "libpulse",
      providers: [.apt(["libpulse-dev"])]
    ),
    .systemLibrary(
      name: "CSndFile",
      pkgConfig: "sndfile",
      providers: [.apt(["libsndfile1-dev"])]
    ),
    .systemLibrary(
      name: "CSampleRate",
      pkgConfig: "samplerate",
      providers: [.apt(["libsamplerate0-dev"])]
    ),
    .systemLibrary(
      name: "CSDL2",
      pkgConfig: "sdl2",
      providers: [.apt(["libsdl2-dev", "libsdl2-ttf-dev", "libsdl2-image-dev"])]
    ),

    // DirectMe's own scorer of every senone of pocketsphinx's tied-mixture model (the
    // numbers `-compallsen` gives, faster), reading the decoder's loaded model. C for speed
    // in every build (optimized, no fused multiply-adds: pocketsphinx's float arithmetic;
    // DWARF 4, which valgrind reads, for scripts/leak-check.sh).
    .target(
      name: "CSenoneScorer",
      dependencies: ["CPocketSphinx"],
      cSettings: [.unsafeFlags(["-O2", "-ffp-contract=off", "-gdwarf-4"])]
    ),

    // sphinxbase's list functions with pooled nodes (see its header): the FSG search
    // allocated and freed a list node per active HMM and frame. Programs linked with it
    // export the functions, which take the place of sphinxbase's own.
    .target(name: "CSphinxLists", cSettings: [.unsafeFlags(["-O2", "-gdwarf-4"])]),

    // The few system services the others need, over the C library (pthreads, posix_spawn,
    // files, printf's number formatting): what Foundation's Process, FileHandle, NSCondition and
    // String(format:) gave, without loading Foundation and its ICU (7 MB of a replay's
    // resident memory; the targets import FoundationEssentials only).
    .target(name: "DirectMeSystem"),

    // Pure Swift: directions, hypotheses, interpretation and rescue, endpointing,
    // animation, metrics. Never sees a C pointer.
    .target(name: "DirectMeCore", dependencies: ["DirectMeSystem"]),

    // Adapters: one per outside world. Only these import the C modules.
    .target(
      name: "DirectMeRecognizer", dependencies: ["DirectMeCore", "DirectMeSystem", "CPocketSphinx", "CSenoneScorer", "CSphinxLists"]),
    .target(name: "DirectMeAudio", dependencies: ["DirectMeCore", "DirectMeSystem", "CPulse", "CSndFile", "CSampleRate"]),
    .target(name: "DirectMeDisplay", dependencies: ["DirectMeCore", "DirectMeSystem", "CSDL2"]),

    // Adaptation and tuning: runs sphinxtrain's tools on labelled recordings, learns the
    // detector's settings. No UI.
    .target(name: "DirectMeTraining", dependencies: ["DirectMeCore", "DirectMeSystem", "DirectMeAudio"]),

    // Benchmarks: corpora (dev set, noise mixes, sequences, synthetic speech, non-speech),
    // the stock baseline, and reports.
    .target(name: "DirectMeBench", dependencies: ["DirectMeCore", "DirectMeAudio"]),

    // The app's runtime: the stage loop behind a Display of closures (SDL or headless), live
    // capture behind an AudioSource (reconnects when the connection is lost), file replay,
    // scoring and tuning jobs, timings, progress. Wires the adapters; touches no C itself.
    .target(
      name: "DirectMeApp",
      dependencies: ["DirectMeCore", "DirectMeSystem", "DirectMeRecognizer", "DirectMeAudio", "DirectMeDisplay", "DirectMeTraining"]),

    // Option groups shared by the two executables.
    .target(
      name: "DirectMeCommandLine",
      dependencies: ["DirectMeApp", .product(name: "ArgumentParser", package: "swift-argument-parser")]),

    // The app: argument parsing and wiring.
    .executableTarget(
      name: "directme",
      dependencies: [
        "DirectMeApp", "DirectMeCommandLine", "DirectMeTraining",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),

    // The benchmarks, not shipped with the app.
    .executableTarget(
      name: "directme-bench",
      dependencies: [
        "DirectMeApp", "DirectMeCommandLine", "DirectMeBench", "DirectMeTraining", "DirectMeRecognizer", "DirectMeAudio",
        "DirectMeSystem", .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),

    // Shared by the tests: speech synthesis at test time, running programs.
    .target(name: "DirectMeTestSupport", dependencies: ["DirectMeBench"], path: "Tests/DirectMeTestSupport"),
    .testTarget(name: "DirectMeSystemTests", dependencies: ["DirectMeSystem"]),
    .testTarget(name: "DirectMeCoreTests", dependencies: ["DirectMeCore", "DirectMeTestSupport"]),
    .testTarget(
      name: "DirectMeRecognizerTests", dependencies: ["DirectMeRecognizer", "DirectMeAudio", "DirectMeTestSupport"]),
    .testTarget(name: "DirectMeAppTests", dependencies: ["DirectMeApp", "DirectMeCore", "DirectMeRecognizer", "DirectMeTraining"]),
    .testTarget(name: "DirectMeAudioTests", dependencies: ["DirectMeAudio", "DirectMeTestSupport"]),
    .testTarget(
      name: "DirectMeTrainingTests",
      dependencies: ["DirectMeTraining", "DirectMeRecognizer", "DirectMeBench", "DirectMeTestSupport"]),
    .testTarget(name: "DirectMeDisplayTests", dependencies: ["DirectMeDisplay", "DirectMeTestSupport"]),
    .testTarget(
      name: "DirectMeEndToEndTests",
      dependencies: ["DirectMeCore", "DirectMeAudio", "DirectMeDisplay", "DirectMeRecognizer", "DirectMeTestSupport"]),
  ],
  swiftLanguageModes: [.v6]
)
