// Command report runs arrowmap's benchmarks and prints their medians as
// markdown tables, one per benchmark group, with ratios to the group's
// baseline variant ("hand", else "fast") and to "arreflect" when present.
//
//	go run ./bench/report [-count N] [-bench REGEX] [-benchtime D] [-in FILE] [-vs VARIANTS]
//	go run ./bench/report -dir duckdb -tags duckdb_arrow [-vs export,scan,appender] ...
//	go run ./bench/report -old OLD.test -new NEW.test [-count N] [-bench REGEX]
//
// By default the benchmarks are those of ./bench; with -dir, those of the
// package at the root of the nested module in that directory of the
// repository (duckdb), built with -tags. With -vs, each group gets a ratio
// column to each variant named that it has, in place of the default ones.
//
// With -old and -new, two binaries of the bench package (go test -c -o
// NEW.test ./bench, and the same at another commit) run in alternating
// rounds and one table compares their medians.
//
// The raw go test output goes to stderr as it runs; the tables go to stdout.
// With -in, report reads saved go test output ("-" for stdin) instead.
package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
)

func main() {
	count := flag.Int("count", 5, "runs of each benchmark; the tables show medians")
	bench := flag.String("bench", ".", "go test -bench regular expression")
	benchtime := flag.String("benchtime", "", "go test -benchtime (default go test's)")
	in := flag.String("in", "", "read go test output from this file (- for stdin) instead of running it")
	oldBin := flag.String("old", "", "with -new: a compiled bench binary to compare against")
	newBin := flag.String("new", "", "with -old: the compiled bench binary to compare")
	dir := flag.String("dir", "", "run the benchmarks of the package at the root of the module in this directory of the repository (default ./bench of the root module)")
	tags := flag.String("tags", "", "go test -tags, the build tags of the benchmarks' package")
	vs := flag.String("vs", "", "comma-separated variants to give each group a ratio column to, where it has them (default: hand, else fast; and arreflect)")
	flag.Parse()
	if *oldBin != "" || *newBin != "" {
		if *oldBin == "" || *newBin == "" {
			fmt.Fprintln(os.Stderr, "report: -old and -new go together")
			os.Exit(2)
		}
		if err := compare(os.Stdout, *oldBin, *newBin, *count, *bench, *benchtime); err != nil {
			fmt.Fprintln(os.Stderr, "report:", err)
			os.Exit(1)
		}
		return
	}
	cfg := runConfig{count: *count, bench: *bench, benchtime: *benchtime, in: *in, dir: *dir, tags: *tags, vs: splitList(*vs)}
	if err := run(os.Stdout, cfg); err != nil {
		fmt.Fprintln(os.Stderr, "report:", err)
		os.Exit(1)
	}
}

// runConfig is what run measures and how it shows it.
type runConfig struct {
	count            int
	bench, benchtime string
	in               string   // saved go test output to read instead of running it
	dir              string   // the nested module whose root package to run, relative to the repository's root; "" for ./bench
	tags             string   // go test -tags
	vs               []string // the variants of the ratio columns; nil for the default ones
}

// testArgs is the go test command line of cfg, and the directory, relative
// to the repository's root, it runs in.
func (cfg runConfig) testArgs() (args []string, dir string) {
	args = []string{"test", "-run", "^$", "-bench", cfg.bench, "-benchmem", "-count", strconv.Itoa(cfg.count)}
	if cfg.benchtime != "" {
		args = append(args, "-benchtime", cfg.benchtime)
	}
	if cfg.tags != "" {
		args = append(args, "-tags", cfg.tags)
	}
	if cfg.dir == "" {
		return append(args, "./bench/"), "."
	}
	return append(args, "."), cfg.dir
}

func run(w io.Writer, cfg runConfig) error {
	args, dir := cfg.testArgs()
	var output []byte
	var err error
	command := "go " + shellJoin(args)
	if dir != "." {
		command = "cd " + shellJoin([]string{dir}) + " && " + command
	}
	if cfg.in != "" {
		command = "parsed from " + cfg.in
		output, err = readInput(cfg.in)
	} else {
		output, err = goTest(dir, args)
	}
	if err != nil {
		return err
	}
	results, err := parse(bytes.NewReader(output))
	if err != nil {
		return err
	}
	if len(results) == 0 {
		return fmt.Errorf("no benchmark matched %q", cfg.bench)
	}
	fmt.Fprintf(w, "%s\n\n", machine(results[0].Procs))
	fmt.Fprintf(w, "`%s` — medians of %d runs; ± is (max−min)/median of time/op; a ratio is time/op over that of the variant it names.\n\n", command, maxRuns(results))
	render(w, summarize(results), cfg.vs)
	return nil
}

// goTest runs go test in dir, relative to the root module's directory (or
// absolute), echoing its output to stderr as it comes, and returns the
// output.
func goTest(dir string, args []string) ([]byte, error) {
	root, err := moduleRoot()
	if err != nil {
		return nil, err
	}
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(root, dir)
	}
	var out bytes.Buffer
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	cmd.Stdout = io.MultiWriter(&out, os.Stderr)
	cmd.Stderr = os.Stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("go %s: %w", shellJoin(args), err)
	}
	return out.Bytes(), nil
}

func readInput(name string) ([]byte, error) {
	if name == "-" {
		return io.ReadAll(os.Stdin)
	}
	return os.ReadFile(name)
}

func moduleRoot() (string, error) {
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		return "", fmt.Errorf("go env GOMOD: %w", err)
	}
	gomod := strings.TrimSpace(string(out))
	if gomod == "" || gomod == os.DevNull {
		return "", fmt.Errorf("not inside a Go module")
	}
	return filepath.Dir(gomod), nil
}

// machine describes where the benchmarks ran.
func machine(procs int) string {
	return fmt.Sprintf("Machine: %s/%s, %s, nproc %d, GOMAXPROCS %d, %s",
		runtime.GOOS, runtime.GOARCH, cpuModel(), runtime.NumCPU(), procs, runtime.Version())
}

// cpuModel is the first "model name" of /proc/cpuinfo, or "unknown CPU".
func cpuModel() string {
	f, err := os.Open("/proc/cpuinfo")
	if err != nil {
		return "unknown CPU"
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		key, value, ok := strings.Cut(sc.Text(), ":")
		if ok && strings.TrimSpace(key) == "model name" {
			return strings.TrimSpace(value)
		}
	}
	return "unknown CPU"
}

func maxRuns(results []result) int {
	runs := map[string]int{}
	most := 0
	for _, r := range results {
		runs[r.Name]++
		most = max(most, runs[r.Name])
	}
	return most
}

// splitList is the comma-separated names of s, without empty ones.
func splitList(s string) []string {
	var names []string
	for _, n := range strings.Split(s, ",") {
		if n = strings.TrimSpace(n); n != "" {
			names = append(names, n)
		}
	}
	return names
}

// shellJoin joins args into a command line a shell reads back the same.
func shellJoin(args []string) string {
	quoted := make([]string, len(args))
	for i, a := range args {
		if a == "" || strings.ContainsAny(a, " \t\n'\"\\$^*?[]{}()|&;<>`!#~") {
			a = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
		quoted[i] = a
	}
	return strings.Join(quoted, " ")
}
