package atomicfile_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/marslab-risk/marslab/internal/atomicfile"
)

// A table streamed into tables.md: a link planted at the name is replaced
// by the new file when it is committed, and the file it pointed to keeps
// its content.
func ExampleCreate() {
	dir, _ := os.MkdirTemp("", "atomicfile-example")
	defer os.RemoveAll(dir)
	victim := filepath.Join(dir, "committed.md")
	_ = os.WriteFile(victim, []byte("committed\n"), 0o644)
	path := filepath.Join(dir, "tables.md")
	_ = os.Symlink(victim, path)

	f, err := atomicfile.Create(path, 0o644)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer f.Abort() // removes the temporary file unless committed
	fmt.Fprintln(f, "| bot | wins |")
	if err := f.Commit(); err != nil {
		fmt.Println(err)
		return
	}
	got, _ := os.ReadFile(path)
	kept, _ := os.ReadFile(victim)
	fmt.Printf("tables.md: %scommitted.md: %s", got, kept)
	// Output:
	// tables.md: | bot | wins |
	// committed.md: committed
}
