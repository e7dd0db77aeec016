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
