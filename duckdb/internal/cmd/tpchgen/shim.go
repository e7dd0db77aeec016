package main

// The tpch extension's entry point, in duckdb-go-bindings' static library
// but referenced by nothing there, so that the linker would leave it out:
// referenced here, it is linked in, and exported (the bindings link with
// -rdynamic) for the shim extension to call.

/*
extern void tpch_duckdb_cpp_init(void *loader);

void arrowmap_tpchgen_init(void *loader) { tpch_duckdb_cpp_init(loader); }
*/
import "C"

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

// shimSource is the shim extension, a shared library whose
// tpch_duckdb_cpp_init (what DuckDB's LOAD of a file named tpch.… calls)
// hands DuckDB's loader to the extension linked into this program,
// through arrowmap_tpchgen_init, which the dynamic linker finds in the
// program.
const shimSource = `extern void arrowmap_tpchgen_init(void *loader);

void tpch_duckdb_cpp_init(void *loader) { arrowmap_tpchgen_init(loader); }
`

// Extension metadata: DuckDB reads the last 512 bytes of an extension
// file, eight fields of 32 bytes, last first (the magic value "4", the
// platform, the DuckDB version, the extension's version, its ABI type,
// three unused), then a signature of 256 bytes, which
// allow_unsigned_extensions lets it skip.
const (
	metadataField = 32
	signatureSize = 256
)

// buildShim compiles the shim extension for DuckDB version on platform
// into dir, with $CC (cc by default), and returns its path.
func buildShim(dir, platform, version string) (string, error) {
	src := filepath.Join(dir, "shim.c")
	if err := os.WriteFile(src, []byte(shimSource), 0o644); err != nil {
		return "", err
	}
	lib := filepath.Join(dir, "tpch.so")
	cc := os.Getenv("CC")
	if cc == "" {
		cc = "cc"
	}
	out, err := exec.Command(cc, "-shared", "-fPIC", "-o", lib, src).CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("compiling the shim extension with %s: %w\n%s", cc, err, out)
	}
	so, err := os.ReadFile(lib)
	if err != nil {
		return "", err
	}
	footer, err := metadata(platform, version)
	if err != nil {
		return "", err
	}
	ext := filepath.Join(dir, "tpch.duckdb_extension")
	return ext, os.WriteFile(ext, append(so, footer...), 0o644)
}

// metadata is the footer of an unsigned extension of the C++ ABI for
// DuckDB version on platform.
func metadata(platform, version string) ([]byte, error) {
	fields := []string{"", "", "", "CPP", version, version, platform, "4"}
	var b bytes.Buffer
	for _, f := range fields {
		if len(f) >= metadataField {
			return nil, errors.New("extension metadata field too long: " + f)
		}
		b.WriteString(f)
		b.Write(make([]byte, metadataField-len(f)))
	}
	b.Write(make([]byte, signatureSize))
	return b.Bytes(), nil
}
