// Command arrowmap shows what arrowmap makes of an Arrow or Parquet file:
// its rows decoded through the mapper, its schema, and Go struct types that
// decode it; and converts between Arrow IPC files and streams and Parquet.
//
//	arrowmap head [-n N] [FILE]                      rows as JSON lines
//	arrowmap schema [FILE]                           the Arrow schema
//	arrowmap gen [-package P] [-type T] [FILE]       Go types with arrow tags
//	arrowmap convert [-from F] [-to F] [-compression C] [-q] IN OUT
//
// FILE is an Arrow IPC file, an IPC stream or a Parquet file, told apart by
// its first bytes; "-" reads standard input. Without FILE, a sample
// embedded in the command is used. Files are read through the library's
// readers (package ipc's record readers, parquet.OpenRecordsReaderAt and
// parquet.ReadSchema), never whole: schema and gen read the schema alone
// (a Parquet or IPC footer, or a stream's schema message), head the
// records its rows need, and convert one record or row group at a time.
// An IPC stream on standard input streams; an IPC or Parquet file there is
// copied to a temporary file, removed at exit, and read from it.
//
// convert writes OUT in the format its extension names (.arrow, .feather,
// .ipc: IPC file; .arrows, .stream: IPC stream; .parquet, .pq) or -to
// names, through the library's writers (parquet.NewRecordWriter, package
// ipc's record writers); "-" writes standard output. A file is written
// beside OUT (with no name, on Linux) and put at it once complete. On a
// terminal, convert shows its progress on standard error.
//
// Every subcommand takes -h for its usage. A usage error exits with status
// 2, a failure with status 1 and one line on standard error naming the
// file.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/arrowmap/arrowmap/internal/version"
	"github.com/arrowmap/arrowmap/mapper"
	"github.com/arrowmap/arrowmap/parquet"

	// Timestamp columns name IANA zones, and the command runs on hosts
	// without a zone database (containers, Windows): embed one (~450 kB).
	_ "time/tzdata"
)

func main() {
	stop := exitOnInterrupt()
	status := run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(status)
}

const usage = `usage: arrowmap COMMAND [FLAGS] [ARGS]

commands:
  head [-n N] [FILE]                 print the first rows as JSON lines
  schema [FILE]                      print the Arrow schema
  gen [-package P] [-type T] [FILE]  print Go types that decode FILE
  convert [-from F] [-to F] [-compression C] [-q] IN OUT
                                     convert IN to OUT: IPC file, IPC stream
                                     or Parquet

FILE is an Arrow IPC file or stream, or a Parquet file, told by its first
bytes; "-" is standard input; without FILE, an embedded sample is used.
"arrowmap COMMAND -h" prints the usage of COMMAND and its flags;
"arrowmap -version" the version.
Exit status: 0 done, 1 failed (one line on standard error), 2 usage error.`

// The usage of each subcommand after its synopsis: what it does.
const (
	inputHelp = `FILE is an Arrow IPC file or stream, or a Parquet file, told by its first
bytes; "-" is standard input (an IPC or Parquet file there is copied to a
temporary file, removed at exit); without FILE, an embedded sample.`
	headHelp = `Prints the first N rows of FILE as JSON lines, decoded through the mapper
into the Go type of its schema; reads only the records those rows need.
NaN and infinities print as "NaN", "+Inf", "-Inf"; timestamps and dates as
RFC 3339 text in the column's zone, a year outside 0-9999 signed
("+10000-01-01T00:00:00Z"); times and durations as nanoseconds, or as the
column's number and unit when that overflows ("-9223372036854775808s").
A Parquet page larger than -max-page-size uncompressed is an error; 0, the
library's default, is 64 MiB plus 64 times the file's size. Input that claims
more memory than 64 MiB plus -max-expansion (default 64) bytes a byte of it
is an error (a compressed buffer, a record's rows, a Parquet record whose
dictionary's values are written out for each row). Parquet INT96
timestamps (Spark's, Impala's) are read in microseconds unless -int96-unit
says otherwise; one the unit cannot hold exactly is an error.
` + inputHelp
	schemaHelp = `Prints the Arrow schema of FILE, as the library reads it (the Arrow types a
Parquet file stores). Reads the schema alone: a Parquet or IPC footer, or
the schema message of a stream; no dictionary, no record.
` + inputHelp
	genHelp = `Prints Go source declaring the struct types that decode FILE, as
mapper.GoTypeOf types its schema, with their arrow tags: a nullable level
is a pointer (or the tag option nullable), whatever the data holds. Reads
the schema alone, as schema does.
` + inputHelp
	convertHelp = `Converts IN to OUT, holding about one record or row group at a time. The
format of OUT is -to, else its extension: .arrow, .feather, .ipc (IPC
file), .arrows, .stream (IPC stream), .parquet, .pq (Parquet); -to that
names another format than a known extension of OUT is an error. "-" as
IN reads standard input (an IPC or Parquet file there is copied to a
temporary file, removed at exit), as OUT writes standard output (with
-to). OUT is written beside itself and renamed once complete: a failure
leaves it as it was. OUT may not be IN (nor a link to it). Parquet is
written in row groups of the library's default size, with the Arrow
schema stored, snappy-compressed by default. Input that claims more memory
than 64 MiB plus -max-expansion (default 64) bytes a byte of it is an error:
raise it for data that compresses more (ZSTD of repetitive text does).
On a terminal, standard error shows, from the first second, the rows
converted, the bytes written, the rate and the time taken and, when IN
says its rows in all (a Parquet footer), the percentage and the time
left; at the end, a line of rows, bytes, time and rate.`
)

// run runs the command line and returns its exit status: 0, 1 for a
// failure (one line on stderr, never a panic), 2 for a usage error.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) (status int) {
	defer func() {
		// The commands recover what they read and name the file; this is
		// the last guard.
		if p := recover(); p != nil {
			fmt.Fprintln(stderr, message(fmt.Errorf("%v", p)))
			status = 1
		}
	}()
	err := dispatch(args, stdin, stdout, stderr)
	var usageErr *usageError
	switch {
	case err == nil:
		return 0
	case errors.Is(err, flag.ErrHelp):
		return 0
	case errors.As(err, &usageErr):
		fmt.Fprintln(stderr, message(err))
		fmt.Fprintln(stderr)
		usageErr.usage()
		return 2
	}
	fmt.Fprintln(stderr, message(err))
	return 1
}

// usageError is a command line the command cannot take: an unknown
// command or flag, a flag's value out of its range, arguments too many or
// too few.
type usageError struct {
	err   error
	usage func() // prints the usage of the command
}

func (e *usageError) Error() string { return e.err.Error() }
func (e *usageError) Unwrap() error { return e.err }

func dispatch(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	globalUsage := func() { fmt.Fprintln(stderr, usage) }
	if len(args) == 0 {
		return &usageError{errors.New("missing command: want head, schema, gen or convert"), globalUsage}
	}
	cmd, args := args[0], args[1:]
	switch cmd {
	case "-h", "-help", "--help", "help":
		globalUsage()
		return flag.ErrHelp
	case "-version", "--version", "version":
		_, err := fmt.Fprintln(stdout, version.CreatedBy)
		return err
	case "head":
		return headCommand(args, stdin, stdout, stderr)
	case "schema":
		return schemaCommand(args, stdin, stdout, stderr)
	case "gen":
		return genCommand(args, stdin, stdout, stderr)
	case "convert":
		return convertCommand(args, stdin, stdout, stderr)
	}
	return &usageError{fmt.Errorf("unknown command %q: want head, schema, gen or convert", cmd), globalUsage}
}

// commandLine is the flags and arguments of a subcommand.
type commandLine struct {
	*flag.FlagSet
	synopsis, help string
	stderr         io.Writer
}

func newCommandLine(name, synopsis, help string, stderr io.Writer) *commandLine {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard) // errors are run's to print, usage is ours
	fs.Usage = func() {}
	return &commandLine{FlagSet: fs, synopsis: synopsis, help: help, stderr: stderr}
}

// usage prints the usage of the subcommand, with its flags.
func (c *commandLine) usage() {
	fmt.Fprintf(c.stderr, "usage: arrowmap %s %s\n\n%s\n", c.Name(), c.synopsis, c.help)
	hasFlags := false
	c.VisitAll(func(*flag.Flag) { hasFlags = true })
	if hasFlags {
		fmt.Fprintln(c.stderr, "\nflags:")
		c.SetOutput(c.stderr)
		c.PrintDefaults()
		c.SetOutput(io.Discard)
	}
}

// parse parses args; -h prints the usage and is flag.ErrHelp.
func (c *commandLine) parse(args []string) error {
	err := c.Parse(args)
	switch {
	case errors.Is(err, flag.ErrHelp):
		c.usage()
		return err
	case err != nil:
		return c.usageErrorf("%v", err)
	}
	return nil
}

// usageErrorf is a usage error of the subcommand.
func (c *commandLine) usageErrorf(format string, args ...any) error {
	return &usageError{fmt.Errorf(c.Name()+": "+format, args...), c.usage}
}

// file parses args, which name one FILE at most, and returns it ("" when
// none: the embedded sample).
func (c *commandLine) file(args []string) (string, error) {
	if err := c.parse(args); err != nil {
		return "", err
	}
	if c.NArg() > 1 {
		return "", c.usageErrorf("one FILE at most, got %d", c.NArg())
	}
	return c.Arg(0), nil
}

// withSource opens name and calls f with it, then closes it. A panic of
// what f reads (arrow-go's) is an error naming the input, after the
// source is closed (a spooled copy removed).
func withSource(name string, stdin io.Reader, f func(*source) error) (err error) {
	src, err := openSource(name, stdin)
	if err != nil {
		return err
	}
	defer src.close()
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("%s: reading failed: %v", src.name, p)
		}
	}()
	return f(src)
}

func headCommand(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	c := newCommandLine("head", "[-n N] [-max-page-size BYTES] [-max-expansion N] [-int96-unit U] [FILE]", headHelp, stderr)
	n := c.Int("n", 10, "the number of rows to print")
	maxPage := c.Int64("max-page-size", 0, "the most bytes a Parquet page may hold uncompressed (0: 64 MiB plus 64 times the file's size)")
	expansion := maxExpansionFlag(c)
	int96 := c.String("int96-unit", "", "the unit of Parquet INT96 timestamps: s, ms, us or ns (default us)")
	name, err := c.file(args)
	if err != nil {
		return err
	}
	units := map[string]arrow.TimeUnit{"s": arrow.Second, "ms": arrow.Millisecond, "us": arrow.Microsecond, "ns": arrow.Nanosecond}
	unit, ok := units[*int96]
	if !ok && *int96 != "" {
		return c.usageErrorf("-int96-unit %q is none of s, ms, us, ns", *int96)
	}
	if *n < 0 {
		return c.usageErrorf("-n %d is negative", *n)
	}
	if *maxPage < 0 {
		return c.usageErrorf("-max-page-size %d is negative", *maxPage)
	}
	if *expansion < 0 {
		return c.usageErrorf("-max-expansion %d is negative", *expansion)
	}
	err = withSource(name, stdin, func(src *source) error {
		src.maxPage, src.expansion = *maxPage, *expansion
		if ok {
			src.int96Unit = &unit
		}
		if *n == 0 {
			// No row to print: only the input's schema is read, and checked.
			_, err := src.schema()
			return err
		}
		in, err := src.records(*n)
		if err != nil {
			return err
		}
		defer in.close()
		return head(in, *n, stdout)
	})
	switch {
	case errors.Is(err, parquet.ErrPageTooLarge):
		return fmt.Errorf("%w (head's -max-page-size sets it)", err)
	case errors.Is(err, parquet.ErrInt96):
		return fmt.Errorf("%w (head's -int96-unit sets it)", err)
	}
	return tooLarge("head", err)
}

// maxExpansionFlag is the -max-expansion flag of a command that reads
// records: mapper.MaxExpansion's ratio.
func maxExpansionFlag(c *commandLine) *int {
	return c.Int("max-expansion", 0, "the most bytes a reader allocates per byte of the input behind a size it claims, past 64 MiB (0: 64)")
}

// tooLarge is err of command, which says which flag raises the limit when
// input claimed more memory than the readers allow.
func tooLarge(command string, err error) error {
	if errors.Is(err, mapper.ErrTooLarge) {
		return fmt.Errorf("%w (%s's -max-expansion raises it)", err, command)
	}
	return err
}

func schemaCommand(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	c := newCommandLine("schema", "[FILE]", schemaHelp, stderr)
	name, err := c.file(args)
	if err != nil {
		return err
	}
	return withSource(name, stdin, func(src *source) error {
		schema, err := src.schema()
		if err != nil {
			return err
		}
		_, err = fmt.Fprintln(stdout, schema)
		return err
	})
}

func genCommand(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	c := newCommandLine("gen", "[-package P] [-type T] [FILE]", genHelp, stderr)
	pkg := c.String("package", "main", "the package of the source")
	typ := c.String("type", "Row", "the name of the row type")
	name, err := c.file(args)
	if err != nil {
		return err
	}
	if err := checkNames(*pkg, *typ); err != nil {
		return c.usageErrorf("%v", err)
	}
	return withSource(name, stdin, func(src *source) error {
		schema, err := src.schema()
		if err != nil {
			return err
		}
		return gen(schema, src.name, *pkg, *typ, stdout)
	})
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
