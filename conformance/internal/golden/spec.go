package golden

import (
	"fmt"
	"math/big"
)

// Outside is a value a row can reach that its declared type cannot hold,
// by the Arrow specification (format/Schema.fbs): a decimal with more
// digits than its precision, a time of day outside [0, 24h), a date64 that
// is not a whole number of days.
type Outside struct {
	Column int    // the top-level column
	Path   string // the value's path, as Mismatch's
	Row    int    // the row of the batch
	Raw    *big.Int
	Why    string
}

func (o Outside) String() string {
	return fmt.Sprintf("column %s, row %d: %s", o.Path, o.Row, o.Why)
}

// OutsideSpec lists the values of batch b outside the Arrow specification.
func (f *File) OutsideSpec(b int) ([]Outside, error) {
	var out []Outside
	batch := &f.Batches[b]
	for k := range f.Schema.Fields {
		fd, c := &f.Schema.Fields[k], &batch.Columns[k]
		for r := range batch.Count {
			err := f.reach(fd, c, r, fd.Name, func(fd *Field, c *Column, i int, path string) error {
				why, raw, err := outside(fd, c, i)
				if why != "" {
					out = append(out, Outside{Column: k, Path: path, Row: r, Raw: raw, Why: why})
				}
				return err
			})
			if err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

// reach calls leaf for every non-null value of a primitive type that row i
// of c reaches, through dictionaries, lists, structs, maps, unions and
// runs.
func (f *File) reach(fd *Field, c *Column, i int, path string, leaf func(*Field, *Column, int, string) error) error {
	if i < 0 || i >= c.Count {
		return mismatchf(path, "row %d outside the column's %d", i, c.Count)
	}
	switch fd.Type.Name {
	case "null":
		return nil
	case "union", "runendencoded":
	default:
		if !c.valid(i) {
			return nil
		}
	}
	if fd.Dictionary != nil {
		k, err := index(c.Data, i)
		if err != nil || f.dicts[fd.Dictionary.ID] == nil {
			return mismatchf(path, "dictionary %d, index: %v", fd.Dictionary.ID, err)
		}
		values := *fd
		values.Dictionary = nil
		return f.reach(&values, f.dicts[fd.Dictionary.ID], k, path, leaf)
	}
	switch fd.Type.Name {
	case "list", "largelist", "fixedsizelist", "listview", "largelistview", "map":
		if len(fd.Children) != 1 || len(c.Children) != 1 {
			return mismatchf(path, "a %s without one child", fd.Type.Name)
		}
		start, end, err := span(fd, c, i)
		if err != nil {
			return mismatchf(path, "%v", err)
		}
		for k := start; k < end; k++ {
			if err := f.reach(&fd.Children[0], &c.Children[0], k, fmt.Sprintf("%s[%d]", path, k-start), leaf); err != nil {
				return err
			}
		}
		return nil
	case "struct":
		for k := range fd.Children {
			if k >= len(c.Children) {
				return mismatchf(path, "child %d missing", k)
			}
			if err := f.reach(&fd.Children[k], &c.Children[k], i, path+"."+fd.Children[k].Name, leaf); err != nil {
				return err
			}
		}
		return nil
	case "union":
		if i >= len(c.TypeID) {
			return mismatchf(path, "no TYPE_ID at %d", i)
		}
		for k, id := range fd.Type.TypeIDs {
			if id != c.TypeID[i] || k >= len(c.Children) {
				continue
			}
			row := i
			if fd.Type.Mode == "DENSE" {
				var err error
				if row, err = index(c.Offset, i); err != nil {
					return mismatchf(path, "%v", err)
				}
			}
			return f.reach(&fd.Children[k], &c.Children[k], row, path+"."+fd.Children[k].Name, leaf)
		}
		return mismatchf(path, "type id %d names no child", c.TypeID[i])
	case "runendencoded":
		if len(fd.Children) != 2 || len(c.Children) != 2 {
			return mismatchf(path, "run-end encoded without run ends and values")
		}
		for k := range c.Children[0].Count {
			end, err := integer(c.Children[0].Data, k)
			if err != nil {
				return mismatchf(path, "run end: %v", err)
			}
			if end.Cmp(big.NewInt(int64(i))) > 0 {
				return f.reach(&fd.Children[1], &c.Children[1], k, path, leaf)
			}
		}
		return mismatchf(path, "row %d past the last run end", i)
	}
	return leaf(fd, c, i, path)
}

// outside says why row i of a primitive column is outside its type, or "".
func outside(fd *Field, c *Column, i int) (string, *big.Int, error) {
	switch fd.Type.Name {
	case "decimal":
		p, err := fd.Type.decimalPrecision()
		if err != nil {
			return "", nil, err
		}
		n, err := integer(c.Data, i)
		if err != nil {
			return "", nil, err
		}
		if digits := len(new(big.Int).Abs(n).String()); digits > p {
			return fmt.Sprintf("%s has %d digits, more than the precision %d", n, digits, p), n, nil
		}
	case "date":
		n, err := integer(c.Data, i)
		if err != nil {
			return "", nil, err
		}
		if fd.Type.Unit == "MILLISECOND" && new(big.Int).Rem(n, big.NewInt(86400000)).Sign() != 0 {
			return fmt.Sprintf("date64 %s ms is not a whole number of days", n), n, nil
		}
	case "time":
		per, err := unitNanos(fd.Type.Unit)
		if err != nil {
			return "", nil, err
		}
		n, err := integer(c.Data, i)
		if err != nil {
			return "", nil, err
		}
		day := big.NewInt(86400 * (1e9 / per))
		if n.Sign() < 0 || n.Cmp(day) >= 0 {
			return fmt.Sprintf("time of day %s %s is outside [0, %s)", n, fd.Type.Unit, day), n, nil
		}
	}
	return "", nil, nil
}
