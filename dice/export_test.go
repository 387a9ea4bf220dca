package dice

// LastSat returns the row from which the last Prepend's grid repeats.
func (c *Chainer) LastSat() int { return c.lastSat }
