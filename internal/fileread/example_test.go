//go:build unix

package fileread_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/marslab-risk/marslab/internal/fileread"
)

// A parameter file is read whole; a device or one over the 1 MiB cap is
// refused before it is read.
func ExampleReadFile() {
	dir, err := os.MkdirTemp("", "fileread")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "best.toml")
	if err := os.WriteFile(path, []byte("bot = \"mars\"\n"), 0o644); err != nil {
		panic(err)
	}
	data, err := fileread.ReadFile(path, fileread.Params)
	fmt.Printf("%q %v\n", data, err)

	_, err = fileread.ReadFile("/dev/zero", fileread.Params)
	fmt.Println(err)

	if err := os.Truncate(path, 100<<20); err != nil {
		panic(err)
	}
	_, err = fileread.ReadFile(path, fileread.Params)
	fmt.Println(err != nil, fileread.Params.Max())
	// Output:
	// "bot = \"mars\"\n" <nil>
	// /dev/zero: not a regular file (a character device): a parameter file must be a regular file
	// true 1048576
}
