// Package mars is the MARS bot of Johansson & Olsson (2006), "Using
// Multi-Agent System Technology in Risk Bots": a multi-agent system in
// which one agent per territory bids for armies and attacks in first-price
// sealed-bid auctions run by a mediator. [Bot] is the [sim.Player]; [New]
// makes one from [Params], [PaperParams] holds the published values of the
// paper's Tables 1 and 2, and [Factory] registers it as "mars" (seat specs
// such as mars@paper or mars(W_p=0.8)). The manual, docs/mars.md, says
// what each choice does to play and how strong the bot is.
//
// # The paper in the files
//
// Agents ("Agent Distribution", "Architecture"). The mediator (mediator.go)
// is the one object the engine talks to: [Bot] hands it each phase, and it
// reads the position into the board (board.go), asks the agents for bids
// and picks the winners. Every territory, own and enemy, has a territory
// agent (agent, mediator.go): enemy agents originate and relay placement
// messages, own agents store goals, bid for armies, attack and trade armies
// in the fortification. The card agent (cardAgent, cards.go) decides the
// trades ([Bot.Trade]). Agents are plain structs and method calls; the
// mediator's state is split by phase into embedded types that live beside
// their code: relay (goals.go), bidding (bids.go), attackState (attack.go)
// and fortifier (fortify.go).
//
// Territory value ("Territory Evaluation", equations (2) and (3), Tables 2
// and 3). V_c = P_sv + P_fn + P_fnu + P_en + P_enu + P_cb + V_b·(V_cp + P_oc
// + P_eoc), each P_x = V_x·C_x, is board.value (board.go; board.terms gives
// the terms for -explain). The C_x are the fields of [Params] (Csv ...
// Ceoc); V_sv = V_b/(V_s·V_nb) is computed once per map.
//
// Goals and goal paths ("Place armies", first step). Every enemy agent
// sends a message with its value and armies to its neighbours; an enemy
// agent appends its own and passes it on, up to G_l territories
// ([Params.Gl]); an own agent stores it as a goal, a path in attack order.
// This is propagate (goals.go), which also drops chains whose odds even
// with every army MARS could bring are below 1 % (pPrune) and, on maps with
// neighbour masks, messages no own agent could store. Which paths are kept
// ([GoalPaths]) and what a goal is worth, w_i ([GoalValue]), are readings
// where the paper is silent.
//
// Auctions ("Place armies", second step, equations (4) and (5)). Every own
// agent bids the larger of its offensive bid, equation (4),
//
//	b_o = max_i P_ob·p_i·w_i·d_i / max(i, 1)
//
// over its goals and i = 0..n new armies (offensive, bids.go), and its
// defensive bid, equation (5), b_d for its own territory (defensive,
// bids.go; read as a gain in holding odds by default, see [DefensiveBid]
// and [HoldUnit]). P_ob and P_db are [Params.Pob] and [Params.Pdb] (Table
// 1). The mediator gives the highest bid its armies and repeats with the
// rest (place and placeAuction, place.go); a goal that wins is pursued.
// firstBid and the bounds in bids.go make the search fast without changing
// the result: the brute-force tests are the oracles (TestOffensiveBrute,
// every goal and every i; TestLazyAuction, the eager auction of the paper;
// TestRelaySmallMatchesGeneral, the plain message loop).
//
// Chain odds (p_i of equation (4), its footnote; Table 4). p_i is the
// probability that a attacking armies conquer a goal's whole path, leaving
// one army in each conquered territory: exact, from the dice of the rules,
// by [dice.Chainer] (odds.go; stacks of hundreds of armies on both sides
// are scaled down, see exactChain), with the odds of every defender
// sequence kept for the game in a trie of suffixes (chainStore, chains.go). d_i and
// d_m are odds.hold: the odds that the survivors hold the territory against
// its strongest enemy neighbour. Single battles come from a [dice.Table].
//
// Attack threshold ("Attack", W_p and W_p1 of Table 1). In each attack
// auction every eligible agent bids its best odds (attackBid, attack.go):
// of conquering the remaining path of a goal it pursues, or, under
// [AttackAny], of a single battle. The highest bid attacks if it reaches
// W_p1 ([Params.Wp1]) before the turn's first conquest and W_p
// ([Params.Wp]) after (chooseAttack); [Bot.Attack] orders one roll and the
// auction runs again after every roll, "until the odds are below W_p".
// [AttackTargets] says whether an agent without a goal may attack;
// [StopOptimal] replaces the thresholds by the optimal stopping policy of
// the best bid's remaining path ([dice.Stop], stopDecide in stop.go).
//
// Move-in. A conquering agent hands its goal path on to the conquered
// territory's agent; occupy (attack.go, [Bot.Occupy]) moves every army
// allowed in when a handed-on goal goes on and the attacking territory
// keeps none, and otherwise splits the armies in proportion to the
// defenders left on each side's best goal or to the strongest enemy stack
// each side faces.
//
// Fortification ("Fortify"). The mediator finds the clusters, the front
// and what each territory can spare (analyse, fortify.go); the front
// territories buy spare armies in an intra-cluster auction (auction), the
// interior passes its armies one step towards the front (relay demand),
// and a maximum flow from sellers to buyers over the owned borders
// (Edmonds-Karp, flow.go) gives the moves of the one-step rule; under the
// single-move rule its largest edge is the move, and under the connected
// rule the interior stack with the most spare armies moves to the best
// front of its cluster ([Bot.Fortify]).
//
// Cards. The card agent (cards.go) trades the set of the highest reward
// when forced, when holding four or more cards, or when the reward is at
// least half of the turn's income; the paper names only a cost and reward
// system.
//
// Parameters (Tables 1 and 2). [Params] has the thirteen numbers and five
// named options; [ParamSpecs] lists their ranges for the registry, and
// [Params.Set] and [Params.Get] address them by the paper's names (W_p,
// P_ob, C_fn, ...).
//
// -explain ([Bot.SetExplain]) narrates every goal, bid and its equation's
// terms, auction winner, attack against its threshold and fortification
// flow; [Bot.GameStats] counts the auctions won by each kind of bid.
package mars
