package providertest

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
)

// Instance is a managed resource's instance in the working directory's
// terraform.tfstate.
type Instance struct {
	// Exists is false when the state, or the resource in it, is absent.
	Exists  bool
	Tainted bool
	Attrs   map[string]any
	// Private is the provider's private state, by key.
	Private map[string][]byte
}

// Attr is the string attribute name, or "".
func (i Instance) Attr(name string) string {
	s, _ := i.Attrs[name].(string)
	return s
}

// stateFile is what the tests read of terraform.tfstate.
type stateFile struct {
	Resources []struct {
		Mode, Type, Name string
		Instances        []struct {
			Status     string
			Attributes map[string]any
			Private    string
		}
	}
}

// readState reads terraform.tfstate; a state that was never written (no
// file, or the empty file a killed terraform leaves) is empty.
func (c *CLI) readState() stateFile {
	c.t.Helper()
	var state stateFile
	raw, err := os.ReadFile(filepath.Join(c.Dir, "terraform.tfstate"))
	if errors.Is(err, os.ErrNotExist) || err == nil && len(raw) == 0 {
		return state
	}
	if err != nil {
		c.t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &state); err != nil {
		c.t.Fatalf("terraform.tfstate: %v\n%s", err, raw)
	}
	return state
}

// Resources counts the resources in the state.
func (c *CLI) Resources() int {
	c.t.Helper()
	return len(c.readState().Resources)
}

// Instance reads the first instance of the managed resource at address
// ("type.name") from the state.
func (c *CLI) Instance(address string) Instance {
	c.t.Helper()
	resourceType, name, _ := strings.Cut(address, ".")
	for _, r := range c.readState().Resources {
		if r.Mode != "managed" || r.Type != resourceType || r.Name != name || len(r.Instances) == 0 {
			continue
		}
		inst := r.Instances[0]
		out := Instance{Exists: true, Tainted: inst.Status == "tainted", Attrs: inst.Attributes}
		if inst.Private != "" {
			decoded, err := base64.StdEncoding.DecodeString(inst.Private)
			if err != nil {
				c.t.Fatalf("%s's private state: %v", address, err)
			}
			if err := json.Unmarshal(decoded, &out.Private); err != nil {
				c.t.Fatalf("%s's private state %s: %v", address, decoded, err)
			}
		}
		return out
	}
	return Instance{}
}
