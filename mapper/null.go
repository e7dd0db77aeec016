package mapper

// Null is the Go type of Arrow's null type: a field of type Null holds
// nothing, reads a column of the null type (every row null) and writes
// one. GoTypeOf gives it to a null column.
type Null struct{}

// MarshalJSON writes a Null as JSON's null, what every row of its column is.
func (Null) MarshalJSON() ([]byte, error) { return []byte("null"), nil }
