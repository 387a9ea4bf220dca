package blocks

// easyExpand returns the Lux "easy expand" attack for p: the first (lowest
// id) territory of p with exactly one enemy neighbour and more armies than
// that neighbour, and the neighbour. ok is false when there is none.
func easyExpand(b *Board, p int) (from, to int, ok bool) {
	for t, o := range b.Owner {
		if o != p || b.Armies[t] < 2 {
			continue
		}
		enemy, count := -1, 0
		for _, u := range b.Map.Territories[t].Neighbors {
			if b.Owner[u] != p {
				enemy = u
				count++
			}
		}
		if count == 1 && b.Armies[t] > b.Armies[enemy] {
			return t, enemy, true
		}
	}
	return -1, -1, false
}

// fillOut returns the Lux "fill out" attack for p: the first (lowest id)
// enemy territory all of whose neighbours are p's, attacked from its
// strongest neighbour (see Board.strongestOwnedNeighbor) if that has more
// armies. ok is false when there is none.
func fillOut(b *Board, p int) (from, to int, ok bool) {
	for u, o := range b.Owner {
		if o == p || !b.surrounded(p, u) {
			continue
		}
		if t := b.strongestOwnedNeighbor(p, u); t >= 0 && b.Armies[t] > b.Armies[u] {
			return t, u, true
		}
	}
	return -1, -1, false
}

// BestRatioAttack returns the attack of p with the highest ratio of
// attacking to defending armies, from a territory of p holding at least 2
// armies to an enemy neighbour (lowest from, then lowest to, on ties), and
// the ratio; ok is false when p cannot attack. It is the choice of the Lux
// "attack for card" block, which attacks when the ratio exceeds a
// threshold.
func BestRatioAttack(b *Board, p int) (from, to int, ratio float64, ok bool) {
	from, to = -1, -1
	for t, o := range b.Owner {
		if o != p || b.Armies[t] < 2 {
			continue
		}
		for _, u := range b.Map.Territories[t].Neighbors {
			if b.Owner[u] == p {
				continue
			}
			// a/d > best, compared without division: a*bd > ba*d.
			if from < 0 || b.Armies[t]*b.Armies[to] > b.Armies[from]*b.Armies[u] {
				from, to = t, u
			}
		}
	}
	if from < 0 {
		return -1, -1, 0, false
	}
	return from, to, float64(b.Armies[from]) / float64(b.Armies[to]), true
}

// consolidate returns the Lux "consolidate" attack for p: the first
// (lowest id) enemy territory touching at least two territories of p whose
// only enemy neighbour it is, when those territories' armies less one each
// (the armies they can attack with) outnumber its armies. It appends the
// attacking territories, in ascending id order, to dst and returns them
// with the target; ok is false (and dst unchanged) when there is none.
func consolidate(dst []int, b *Board, p int) (attackers []int, target int, ok bool) {
	for u, o := range b.Owner {
		if o == p {
			continue
		}
		n, sum := 0, 0
		start := len(dst)
		for _, t := range b.Map.Territories[u].Neighbors {
			if b.Owner[t] == p && b.EnemyNeighbors(p, t) == 1 {
				dst = append(dst, t)
				n++
				sum += b.Armies[t] - 1
			}
		}
		if n >= 2 && sum > b.Armies[u] {
			return dst, u, true
		}
		dst = dst[:start]
	}
	return dst, -1, false
}

// splitUp returns the first (lowest id) border territory of p for the Lux
// "split up(r)" attack: one holding more than r times the total armies of
// its enemy neighbours (see [Board.EnemyArmiesAround]), which then attacks
// each enemy neighbour in turn. ok is false when there is none.
func splitUp(b *Board, p int, r float64) (from int, ok bool) {
	for t, o := range b.Owner {
		if o != p || b.Armies[t] < 2 {
			continue
		}
		if e := b.EnemyArmiesAround(p, t); e > 0 && float64(b.Armies[t]) > r*float64(e) {
			return t, true
		}
	}
	return -1, false
}
