package ipc_test

import (
	"bytes"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/arrowmap/arrowmap/ipc"
)

func ExampleWriteFile() {
	type Order struct {
		ID     int64    `arrow:"id"`
		Region string   `arrow:"region,dict"`
		Tags   []string `arrow:"tags"`
		Note   *string  `arrow:"note"`
	}
	dir, err := os.MkdirTemp("", "example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "orders.arrow")

	note := "fragile"
	orders := []Order{{1, "north", []string{"a"}, nil}, {2, "south", nil, &note}, {3, "north", []string{}, nil}}
	if err := ipc.WriteFile(path, orders, ipc.WriteConfig{Compression: ipc.ZSTD, BatchRows: 2}); err != nil {
		log.Fatal(err)
	}
	got, err := ipc.ReadFile[Order](path)
	if err != nil {
		log.Fatal(err)
	}
	for _, o := range got {
		fmt.Printf("%d %s %q %v\n", o.ID, o.Region, o.Tags, o.Note != nil)
	}
	// Output:
	// 1 north ["a"] false
	// 2 south [] true
	// 3 north [] false
}

func ExampleNewWriter() {
	type Reading struct {
		Sensor string  `arrow:"sensor"`
		Value  float64 `arrow:"value"`
	}
	var stream bytes.Buffer // a network connection, a pipe
	w, err := ipc.NewWriter[Reading](&stream, ipc.WriteConfig{Compression: ipc.LZ4})
	if err != nil {
		log.Fatal(err)
	}
	for i := range 3 {
		if _, err := w.Write([]Reading{{fmt.Sprintf("s%d", i), float64(i) / 2}}); err != nil {
			log.Fatal(err)
		}
		if err := w.Flush(); err != nil { // a record now, for the reader at the other end
			log.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		log.Fatal(err)
	}

	r, err := ipc.NewReader[Reading](&stream)
	if err != nil {
		log.Fatal(err)
	}
	defer r.Release()
	for row, err := range r.All() {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%+v\n", row)
	}
	// Output:
	// {Sensor:s0 Value:0}
	// {Sensor:s1 Value:0.5}
	// {Sensor:s2 Value:1}
}
