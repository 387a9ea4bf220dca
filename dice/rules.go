package dice

import "fmt"

// Rules are the dice rules of a battle.
type Rules struct {
	// AttackerDice is the maximum number of attacking dice per roll, 1..3
	// (3 in the classic rules).
	AttackerDice int
	// DefenderDice is the maximum number of defending dice per roll, 1..3
	// (2 in the classic rules).
	DefenderDice int
	// TiesToAttacker makes a tied pair of dice a defender loss; in the
	// classic rules ties go to the defender.
	TiesToAttacker bool
	// Sides is the number of faces of every die, 2..12; 0 means 6, the
	// classic die (the engine rolls six-sided dice only: other sides are
	// for the odds, as Hendel, Hoffman, Manack and Wagaman generalise them).
	Sides int
}

// maxSides is the most faces a die may have in [Rules.Sides].
const maxSides = 12

// sides returns the number of faces of the dice, 6 for Sides = 0.
func (r Rules) sides() int {
	if r.Sides == 0 {
		return 6
	}
	return r.Sides
}

// Classic are the classic Risk dice rules: up to 3 attacking dice, up to 2
// defending dice, ties to the defender. It is never modified by this
// package.
var Classic = Rules{AttackerDice: 3, DefenderDice: 2}

// maxDice is the largest number of dice one side may roll at once.
const maxDice = 3

// Validate reports whether the dice caps are in range.
func (r Rules) Validate() error {
	if r.AttackerDice < 1 || r.AttackerDice > maxDice {
		return fmt.Errorf("dice: attacker dice %d outside [1, %d]", r.AttackerDice, maxDice)
	}
	if r.DefenderDice < 1 || r.DefenderDice > maxDice {
		return fmt.Errorf("dice: defender dice %d outside [1, %d]", r.DefenderDice, maxDice)
	}
	if r.Sides != 0 && (r.Sides < 2 || r.Sides > maxSides) {
		return fmt.Errorf("dice: %d-sided dice outside [2, %d] (0 for 6)", r.Sides, maxSides)
	}
	return nil
}

// String returns a short description such as "3v2", "3v2 ties-to-attacker"
// or "3v2 d8" (eight-sided dice).
func (r Rules) String() string {
	s := fmt.Sprintf("%dv%d", r.AttackerDice, r.DefenderDice)
	if r.TiesToAttacker {
		s += " ties-to-attacker"
	}
	if n := r.sides(); n != 6 {
		s += fmt.Sprintf(" d%d", n)
	}
	return s
}
