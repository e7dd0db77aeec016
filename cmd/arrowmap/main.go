// Command arrowmap shows what arrowmap makes of an Arrow or Parquet file:
// its rows decoded through the mapper, its schema, and Go struct types that
// decode it; and converts between Arrow IPC files and streams and Parquet.
//
//	arrowmap head [-n N] [FILE]     rows as JSON lines
//	arrowmap schema [FILE]          the Arrow schema
//	arrowmap gen [-package P] [-type T] [FILE]   Go types with arrow tags
//	arrowmap convert [-from F] [-to F] [-compression C] [IN] OUT
//
// FILE is an Arrow IPC file, an IPC stream or a Parquet file, told apart by
// its first bytes; "-" reads standard input. Without FILE, a sample
// embedded in the command is used. convert writes OUT in the format its
// extension names (.arrow, .feather, .ipc: IPC file; .arrows, .stream: IPC
// stream; .parquet, .pq) or -to names; "-" writes standard output.
package main

//go:generate go run gen_sample.go

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"

	// Timestamp columns name IANA zones, and the command runs on hosts
	// without a zone database (containers, Windows): embed one (~450 kB).
	_ "time/tzdata"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

const usage = `usage:
  arrowmap head [-n N] [FILE]                  print rows as JSON lines
  arrowmap schema [FILE]                       print the Arrow schema
  arrowmap gen [-package P] [-type T] [FILE]   print Go types that decode FILE
  arrowmap convert [-from F] [-to F] [-compression C] [IN] OUT
                                               convert IN to OUT: IPC file, IPC
                                               stream or Parquet (F: file, stream,
                                               parquet), by OUT's extension (.arrow,
                                               .arrows, .parquet) or -to
FILE is an Arrow IPC file or stream, or a Parquet file; "-" is standard input;
without FILE, an embedded sample is used.
head prints NaN and infinities as "NaN", "+Inf", "-Inf"; timestamps and dates
as RFC 3339 text in the column's zone, a year outside 0-9999 signed
("+10000-01-01T00:00:00Z"); times and durations as nanoseconds, or as the
column's number and unit when that overflows ("-9223372036854775808s").
schema reads the schema alone.`

// run runs the command line and returns its exit status. A failure is one
// line on stderr and status 1, never a panic.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) (status int) {
	defer func() {
		if p := recover(); p != nil {
			if e, ok := p.(tooLarge); ok {
				fmt.Fprintln(stderr, message(e))
			} else {
				fmt.Fprintln(stderr, message(fmt.Errorf("reading the input failed: %v", p)))
			}
			status = 1
		}
	}()
	if err := dispatch(args, stdin, stdout, stderr); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(stderr, usage)
			return 0
		}
		fmt.Fprintln(stderr, message(err))
		return 1
	}
	return 0
}

func dispatch(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		return errors.New("missing command: want head, schema, gen or convert (arrowmap -h for help)")
	}
	cmd, args := args[0], args[1:]
	fs := flag.NewFlagSet(cmd, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var run func(in *input) error
	opener := open
	switch cmd {
	case "-h", "-help", "--help", "help":
		return flag.ErrHelp
	case "head":
		n := fs.Int("n", 10, "number of rows")
		run = func(in *input) error { return head(in, *n, stdout, stderr) }
	case "schema":
		opener = openSchema // the data may be damaged where the schema is not
		run = func(in *input) error { _, err := fmt.Fprintln(stdout, in.schema); return err }
	case "convert":
		return convertCommand(fs, args, stdin, stdout, stderr)
	case "gen":
		pkg := fs.String("package", "main", "package name")
		typ := fs.String("type", "Row", "name of the row type")
		run = func(in *input) error { return gen(in, *pkg, *typ, stdout) }
	default:
		return fmt.Errorf("unknown command %q: want head, schema, gen or convert", cmd)
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return fmt.Errorf("%s: %v", cmd, err)
	}
	if fs.NArg() > 1 {
		return fmt.Errorf("%s: one FILE at most, got %d", cmd, fs.NArg())
	}
	in, err := opener(fs.Arg(0), stdin)
	if err != nil {
		return err
	}
	defer in.close()
	return run(in)
}

// message is the one line run prints for err: "arrowmap: " once, then
// err's text without the prefixes of this module's packages
// ("arrowmap: ", "arrowmap/ipc: "), which mapper's errors and the IO
// packages' carry, at its start or where one error wraps another (after
// ": "). Elsewhere, as in a column's name, the text is kept.
func message(err error) string {
	return "arrowmap: " + packagePrefix.ReplaceAllString(oneLine(err.Error()), "$1")
}

// packagePrefix is how the errors of this module's packages start, at the
// start of a message or of a wrapped one.
var packagePrefix = regexp.MustCompile(`(^|: )(?:arrowmap(?:/[a-z]+)?: )+`)

// oneLine keeps an error message on one line.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
