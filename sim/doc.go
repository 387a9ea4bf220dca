// Package sim is the Risk engine of marslab: maps and rule sets read from
// TOML ([LoadMap], [LoadRules]), a Game that plays seeded games between
// Players, and the events of every game for observers and logs.
//
// A Game ([NewGame]) plays one map and rule set with a fixed number of seats
// and reuses its buffers from game to game: Play plays a whole game whose
// random streams depend only on an experiment seed and a game index
// ([GameSeed]); PlayFrom plays on from a Position. The engine validates
// every answer of a Player with the exported checks ([State.CheckTrade],
// CheckPlacement, CheckAttack, [CheckOccupy], [State.CheckMoves]), which bots
// may call too, and lists the legal actions of a phase (LegalAttacks,
// [State.LegalFortifies], [State.ValidTrades]). [OwnedPaths] searches paths
// through one seat's territories, as the engine does under
// [FortifyConnected].
//
// Each seat's player sees the game through a State of its own: the board,
// every seat's card count, its own hand and mission (Hand, MyMission),
// never another seat's cards or mission unless the rules open them
// ([info] open). Observers ([Game.Observe], [Game.State]) see all.
//
// A Position is a copyable snapshot of a game: built in code, read from
// TOML ([ParsePosition]), or taken from a game ([Game.Position]). [NewStateAt]
// gives the State a bot would be given at a position, so a test can ask a
// bot for its decision there.
//
// Players may implement the optional hooks Ender (the end of the game and
// its result) and Watcher (the game's events as the seat may see them).
// Events ([EventKind]) record what happened and what the players decided
// ([EvAttackOrder], [EvEndPhase]); [Event.AppendJSON] writes them as the lines of
// a JSONL game log.
package sim
