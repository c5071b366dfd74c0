import ArgumentParser

@main
struct DirectMe: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "directme",
    abstract: "Direct a ninja around a window by voice, offline.",
    discussion: """
      Say "up", "move left" or "down down right" and the ninja moves. Recognition runs locally \
      with PocketSphinx; nothing leaves the machine.
      """,
    subcommands: [Live.self, Replay.self, Score.self, Record.self, Enroll.self, Personalize.self, Adapt.self, Tune.self],
    defaultSubcommand: Live.self
  )
}
