package docstest

import (
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// buildMirrorRefusal is a run of scripts/build-mirror that must stop before
// it writes or removes anything.
type buildMirrorRefusal struct {
	name string
	// prepare returns the DIR argument, made in parent.
	prepare func(t *testing.T, parent string) string
	env     []string
	// says is what the refusal must say.
	says string
}

// precious is a file that a VERSION or a PLATFORMS climbing out of the
// mirror would have the script remove: DIR/<platform>/keep.
const precious = "keep"

func privateDir(t *testing.T, parent string) string {
	t.Helper()
	dir := filepath.Join(parent, "mirror")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, runtime.GOOS+"_"+runtime.GOARCH), 0o700); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, runtime.GOOS+"_"+runtime.GOARCH, precious), "precious\n")
	return dir
}

// withMode is a directory of the caller's with mode perm.
func withMode(perm os.FileMode) func(t *testing.T, parent string) string {
	return func(t *testing.T, parent string) string {
		t.Helper()
		dir := privateDir(t, parent)
		if err := os.Chmod(dir, perm); err != nil {
			t.Fatal(err)
		}
		return dir
	}
}

// ownedByAnother is a directory that another user owns: made by the test
// and given to nobody when it runs as root, else the root directory.
func ownedByAnother(t *testing.T, parent string) string {
	t.Helper()
	if os.Geteuid() != 0 {
		return "/"
	}
	dir := privateDir(t, parent)
	uid, gid := 65534, 65534
	if nobody, err := user.Lookup("nobody"); err == nil {
		uid, _ = strconv.Atoi(nobody.Uid)
		gid, _ = strconv.Atoi(nobody.Gid)
	}
	if err := os.Chown(dir, uid, gid); err != nil {
		t.Fatal(err)
	}
	return dir
}

var buildMirrorRefusals = []buildMirrorRefusal{
	{"DIR owned by another user", ownedByAnother, nil, "is not owned by you"},
	{"DIR writable by others", withMode(0o777), nil, "is writable by other users"},
	{"DIR writable by its group", withMode(0o770), nil, "is writable by other users"},
	{"DIR a symbolic link", func(t *testing.T, parent string) string {
		t.Helper()
		link := filepath.Join(parent, "link")
		if err := os.Symlink(privateDir(t, parent), link); err != nil {
			t.Fatal(err)
		}
		return link
	}, nil, "is a symbolic link"},
	{"DIR with an HCL template sequence", func(t *testing.T, parent string) string {
		t.Helper()
		return filepath.Join(parent, "${path.module}")
	}, nil, "which a CLI configuration cannot hold"},
	{"VERSION climbing out of the mirror", privateDir, []string{"VERSION=../../../../.."}, "VERSION='../../../../..' is not a version"},
	{"PLATFORMS climbing out of the mirror", privateDir, []string{"PLATFORMS=linux_amd64 ../../../../../../" + runtime.GOOS + "_" + runtime.GOARCH},
		"which is not a platform such as linux_amd64"},
	{"PLATFORMS empty", privateDir, []string{"PLATFORMS= "}, "PLATFORMS is empty"},
}

// TestBuildMirrorRefusesWhatIsNotSafe: on a shared machine, where another
// user may create DIR first or plant a link in its place, the script
// refuses a DIR that is not the caller's alone, and a VERSION or PLATFORMS
// that would put a path outside the mirror, before it writes or removes
// anything.
func TestBuildMirrorRefusesWhatIsNotSafe(t *testing.T) {
	t.Parallel()
	script := filepath.Join("..", "..", "scripts", "build-mirror")
	for _, tc := range buildMirrorRefusals {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			home := t.TempDir()
			dir := tc.prepare(t, t.TempDir())
			keep := filepath.Join(dir, runtime.GOOS+"_"+runtime.GOARCH, precious)
			_, statErr := os.Stat(keep)
			hadPrecious := statErr == nil
			cmd := exec.Command(script, dir)
			cmd.Env = append(scriptEnv(t, home), tc.env...)
			out, err := cmd.CombinedOutput()
			if err == nil || !strings.Contains(string(out), tc.says) {
				t.Errorf("scripts/build-mirror %q: err %v, want a refusal that says %q:\n%s", dir, err, tc.says, out)
			}
			if dir == "/" {
				return
			}
			for _, written := range []string{"terraform.rc", "mirror"} {
				if _, err := os.Lstat(filepath.Join(dir, written)); err == nil {
					t.Errorf("the script wrote %s after refusing", written)
				}
			}
			if _, err := os.Stat(keep); hadPrecious && err != nil {
				t.Errorf("the script removed a file outside its mirror: %v", err)
			}
		})
	}
}

// TestContributingBuildsTheMirrorInAPrivateDir: CONTRIBUTING.md's commands
// give scripts/build-mirror a directory that `mktemp -d` (or the CI
// runner) created, never a fixed path under /tmp that another user could
// create first.
func TestContributingBuildsTheMirrorInAPrivateDir(t *testing.T) {
	t.Parallel()
	contributing := readRepoFile(t, "CONTRIBUTING.md")
	runs := regexp.MustCompile("scripts/build-mirror +([^ `\n]+)\n").FindAllStringSubmatch(contributing, -1)
	if len(runs) == 0 || !strings.Contains(contributing, "mirror=$(mktemp -d)") {
		t.Fatal("CONTRIBUTING.md no longer runs scripts/build-mirror in a directory that `mktemp -d` creates")
	}
	for _, run := range runs {
		if !strings.HasPrefix(run[1], `"$`) {
			t.Errorf("CONTRIBUTING.md runs scripts/build-mirror %s: give it a directory of your own, such as \"$mirror\" from `mktemp -d`", run[1])
		}
	}
}
