package mapper

// PlanOf is the identity of the decode plan a Mapper[T] uses: tests compare
// it to tell a plan reused from one compiled again.
func PlanOf[T any](m *Mapper[T]) any { return m.plan }

// testOptions applies opts as an entry point that takes every option.
func testOptions(opts []Option) *options {
	o, err := optionsFor("test", ^optionSet(0), opts)
	if err != nil {
		panic(err)
	}
	return o
}

// PlanCacheSize is what the plan cache holds: its plans, and its keys (a
// kind of plan, a Go type and plan options, under which plans for
// different planned columns are kept).
func PlanCacheSize() (held, keys int) {
	c := &plans
	c.mu.Lock()
	defer c.mu.Unlock()
	c.sets.Range(func(_, s any) bool {
		keys++
		held += len(s.(*planSet).plans)
		return true
	})
	return held, keys
}

// MaxCachedPlans is the bound of the plan cache, in plans over all keys.
const MaxCachedPlans = maxPlans
