package tags_test

import (
	"errors"
	"fmt"
	"reflect"
	"time"

	"github.com/arrowmap/arrowmap/tags"
)

func ExampleParse() {
	tag, err := tags.Parse("created_at,nullable,timestamp,unit=ms,tz=Asia/Tokyo")
	if err != nil {
		panic(err)
	}
	fmt.Println(tag.Name, tag.Nullable, tag.Temporal, tag.Unit, tag.TZ)

	_, err = tags.Parse("price,decimal(5,10)")
	fmt.Println(err)
	// Output:
	// created_at true timestamp ms Asia/Tokyo
	// arrowmap/tags: invalid tag option "decimal(5,10)": scale 10 exceeds precision 5
}

func ExampleOf() {
	type Order struct {
		ID     int64             `arrow:"id"`
		Items  []string          `arrow:"items,large_list" arrow-elem:"dict"`
		Extras map[string]string `arrow:"extras,nullable" arrow-value:"nullable"`
		Cache  []byte            `arrow:"-"`
	}
	typ := reflect.TypeFor[Order]()
	for i := range typ.NumField() {
		tag, err := tags.Of(typ.Field(i))
		if err != nil {
			panic(err)
		}
		switch {
		case tag.Skip:
			fmt.Printf("%s: skipped\n", typ.Field(i).Name)
		case tag.Elem != nil:
			fmt.Printf("%s: column %q, %s of dict=%t\n", typ.Field(i).Name, tag.Name, tag.Encoding, tag.Elem.Dict)
		case tag.Value != nil:
			fmt.Printf("%s: column %q, nullable=%t, nullable values=%t\n", typ.Field(i).Name, tag.Name, tag.Nullable, tag.Value.Nullable)
		default:
			fmt.Printf("%s: column %q\n", typ.Field(i).Name, tag.Name)
		}
	}
	// Output:
	// ID: column "id"
	// Items: column "items", large_list of dict=true
	// Extras: column "extras", nullable=true, nullable values=true
	// Cache: skipped
}

func ExampleParseOptions() {
	// The value of an arrow-elem, arrow-key or arrow-value tag: options, no
	// name. A leading comma, as parquet-go users write it, changes nothing.
	for _, opts := range []string{",nullable", "dict", "timestamp,unit=us", "name"} {
		tag, err := tags.ParseOptions(opts)
		if err != nil {
			fmt.Printf("%q: invalid, ErrTag=%t\n", opts, errors.Is(err, tags.ErrTag))
			continue
		}
		fmt.Printf("%q: nullable=%t dict=%t %s %s\n", opts, tag.Nullable, tag.Dict, tag.Temporal, tag.Unit)
	}
	// Output:
	// ",nullable": nullable=true dict=false default default
	// "dict": nullable=false dict=true default default
	// "timestamp,unit=us": nullable=false dict=false timestamp us
	// "name": invalid, ErrTag=true
}

func ExampleTag_Location() {
	for _, spec := range []string{"at,timestamp", "at,timestamp,tz=Asia/Tokyo", "at,timestamp,tz=+05:30"} {
		tag, err := tags.Parse(spec)
		if err != nil {
			panic(err)
		}
		loc, err := tag.Location()
		if err != nil {
			panic(err)
		}
		noon := time.Date(2024, 3, 1, 12, 0, 0, 0, time.UTC).In(loc)
		fmt.Printf("%-26s %-10s %s\n", spec, loc, noon.Format(time.RFC3339))
	}
	// Output:
	// at,timestamp               UTC        2024-03-01T12:00:00Z
	// at,timestamp,tz=Asia/Tokyo Asia/Tokyo 2024-03-01T21:00:00+09:00
	// at,timestamp,tz=+05:30     +05:30     2024-03-01T17:30:00+05:30
}
