package sim

import "math/rand/v2"

// RollDice rolls na attacking and nd defending dice (1 <= na <= 3,
// 1 <= nd <= 2) with rng, compares them highest first and returns the
// armies lost by each side. Ties go to the defender unless tiesToAttacker.
// The dice are stored in att and def, sorted in descending order. This is
// the engine's own dice code: every battle in a game goes through it.
//
// One 64-bit draw gives all five dice: a uniform integer below 6^5 is
// obtained by rejection and read in base 6, so every die is exactly uniform.
func RollDice(rng *rand.Rand, na, nd int, tiesToAttacker bool, att *[3]uint8, def *[2]uint8) (attLoss, defLoss int) {
	const span = 7776 // 6^5
	const limit = (1<<64 - 1) - (1<<64-1)%span - 1
	var x uint64
	for {
		x = rng.Uint64()
		if x <= limit {
			break
		}
	}
	x %= span
	var a [3]uint8
	var d [2]uint8
	for i := 0; i < 3; i++ {
		a[i] = uint8(x%6) + 1
		x /= 6
	}
	d[0] = uint8(x%6) + 1
	d[1] = uint8(x/6) + 1
	// Sort the used dice in descending order (at most three).
	if na >= 2 && a[1] > a[0] {
		a[0], a[1] = a[1], a[0]
	}
	if na == 3 {
		if a[2] > a[1] {
			a[1], a[2] = a[2], a[1]
		}
		if a[1] > a[0] {
			a[0], a[1] = a[1], a[0]
		}
	}
	if nd == 2 && d[1] > d[0] {
		d[0], d[1] = d[1], d[0]
	}
	for i := na; i < 3; i++ {
		a[i] = 0
	}
	if nd < 2 {
		d[1] = 0
	}
	*att, *def = a, d
	n := na
	if nd < n {
		n = nd
	}
	for i := 0; i < n; i++ {
		if a[i] > d[i] || (tiesToAttacker && a[i] == d[i]) {
			defLoss++
		} else {
			attLoss++
		}
	}
	return attLoss, defLoss
}
