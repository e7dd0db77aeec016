package atomicfile

// NamedOnly makes Create name its files until the test ends, as where the
// system has no unnamed ones.
func NamedOnly(cleanup func(func())) {
	forceNamed = true
	cleanup(func() { forceNamed = false })
}
