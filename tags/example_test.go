package tags_test

import (
	"fmt"
	"reflect"

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
