package zone

import (
	"testing"
	"time"
)

func TestSameTakesTheNamesOfUTCAsOneZoneAndNoOtherTwo(t *testing.T) {
	for _, name := range []string{"UTC", "Etc/UTC", "Etc/UCT", "Etc/Universal", "Etc/Zulu", "UCT", "Universal", "Zulu", "Z", "+00:00"} {
		if !Same("UTC", name) || !Same(name, "Etc/UTC") {
			t.Errorf("%s is UTC", name)
		}
		loc, err := Parse(name)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		// Every name in the set is a zone of offset 0 at every instant.
		for _, at := range []time.Time{time.Unix(0, 0), time.Date(1900, 6, 1, 0, 0, 0, 0, time.UTC), time.Date(2030, 7, 1, 0, 0, 0, 0, time.UTC)} {
			if _, off := at.In(loc).Zone(); off != 0 {
				t.Errorf("%s has offset %d at %s", name, off, at)
			}
		}
	}
	for _, pair := range [][2]string{{"UTC", "Europe/London"}, {"UTC", "GMT+1"}, {"Asia/Tokyo", "Japan"}, {"UTC", ""}, {"+01:00", "UTC"}} {
		if Same(pair[0], pair[1]) {
			t.Errorf("%s and %s are not one zone here", pair[0], pair[1])
		}
	}
	if !Same("Asia/Tokyo", "Asia/Tokyo") {
		t.Error("a zone is itself")
	}
}
