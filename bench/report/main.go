// Command report runs arrowmap's benchmarks and prints their medians as
// markdown tables, one per benchmark group, with ratios to the group's
// baseline variant ("hand", else "fast") and to "arreflect" when present.
//
//	go run ./bench/report [-count N] [-bench REGEX] [-benchtime D] [-in FILE]
//	go run ./bench/report -old OLD.test -new NEW.test [-count N] [-bench REGEX]
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
	if err := run(os.Stdout, *count, *bench, *benchtime, *in); err != nil {
		fmt.Fprintln(os.Stderr, "report:", err)
		os.Exit(1)
	}
}

func run(w io.Writer, count int, bench, benchtime, in string) error {
	args := []string{"test", "-run", "^$", "-bench", bench, "-benchmem", "-count", strconv.Itoa(count)}
	if benchtime != "" {
		args = append(args, "-benchtime", benchtime)
	}
	args = append(args, "./bench/")

	var output []byte
	var err error
	command := "go " + shellJoin(args)
	if in != "" {
		command = "parsed from " + in
		output, err = readInput(in)
	} else {
		output, err = goTest(args)
	}
	if err != nil {
		return err
	}
	results, err := parse(bytes.NewReader(output))
	if err != nil {
		return err
	}
	if len(results) == 0 {
		return fmt.Errorf("no benchmark matched %q", bench)
	}
	fmt.Fprintf(w, "%s\n\n", machine(results[0].Procs))
	fmt.Fprintf(w, "`%s` — medians of %d runs; ± is (max−min)/median of time/op; a ratio is time/op over that of the variant it names.\n\n", command, maxRuns(results))
	render(w, summarize(results))
	return nil
}

// goTest runs go test at the module root, echoing its output to stderr as
// it comes, and returns the output.
func goTest(args []string) ([]byte, error) {
	root, err := moduleRoot()
	if err != nil {
		return nil, err
	}
	var out bytes.Buffer
	cmd := exec.Command("go", args...)
	cmd.Dir = root
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
