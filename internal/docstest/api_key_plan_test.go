package docstest

import (
	"archive/zip"
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"io"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mintlify/terraform-provider-mintlify/internal/clock"
	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi"
	"github.com/mintlify/terraform-provider-mintlify/internal/provider/providertest"
)

// TestAPIKeyInSavedPlans checks what the docs say of the API key and saved
// plan files (`terraform plan -out`), with the provider built as a plugin
// (which reads MINTLIFY_API_KEY itself): the two documented ways, the
// environment variable and an ephemeral input variable
// (examples/guides/running-in-ci/ephemeral-key), leave no byte of the key
// in the plan file, and the saved plan applies; a `sensitive` variable,
// which the docs warn against, does write it there.
func TestAPIKeyInSavedPlans(t *testing.T) {
	t.Parallel()
	providertest.CLIContract(t)
	ephemeralKey := readExample(t, filepath.Join("guides", "running-in-ci", "ephemeral-key"), "main.tf")
	sensitiveKey := strings.Replace(ephemeralKey, "ephemeral   = true", "sensitive   = true", 1)
	if sensitiveKey == ephemeralKey {
		t.Fatal("the ephemeral-key example no longer declares `ephemeral   = true`")
	}
	for _, tc := range []struct {
		name, config, minVersion string
		// viaVariable gives the key as TF_VAR_mintlify_api_key, else as
		// MINTLIFY_API_KEY.
		viaVariable, keyInPlan bool
	}{
		{"environment variable", readExample(t, "provider", "provider.tf"), "", false, false},
		{"ephemeral variable", ephemeralKey, ">= 1.10", true, false},
		{"sensitive variable", sensitiveKey, "", true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if tc.minVersion != "" {
				providertest.SkipUnlessVersion(t, tc.minVersion)
			}
			key := randomAPIKey(t)
			fake := fakeapi.New(fakeapi.WithClock(clock.Real()), fakeapi.WithKeys(fakeapi.KeyOptions{APIKey: key}),
				fakeapi.WithStaticExport(fakeapi.StaticExportOptions{Plan: func(fakeapi.StartRequest) fakeapi.JobPlan { return fakeapi.JobPlan{} }}))
			srv := httptest.NewServer(fake)
			t.Cleanup(srv.Close)
			keyVar := envAPIKey + "=" + key
			if tc.viaVariable {
				keyVar = "TF_VAR_mintlify_api_key=" + key
			}
			cli := providertest.BuiltCLI(t, providertest.WithEnv(keyVar, envBaseURL+"="+srv.URL, envProjectID+"=proj_0123456789abcdef"))
			cli.WriteConfig(tc.config)
			cli.MustRun("init", "-input=false", "-no-color")
			cli.MustRun("plan", "-out=tfplan", "-input=false", "-no-color")

			where := keyIn(t, filepath.Join(cli.Dir, "tfplan"), key)
			switch {
			case tc.keyInPlan && where == "":
				t.Fatal("the saved plan holds no trace of the key given through a sensitive variable: " +
					"the docs say it does; correct them")
			case tc.keyInPlan:
				return
			case where != "":
				t.Fatalf("the API key given through the %s is in the saved plan, in %s", tc.name, where)
			}
			cli.MustRun("apply", "-input=false", "-no-color", "tfplan")
			if fake.ExportJobsStarted() != 1 {
				t.Errorf("export jobs started = %d, want 1", fake.ExportJobsStarted())
			}
		})
	}
}

// keyIn names where the saved plan at path holds key (the zip file's bytes,
// or one of its files, decompressed), or "".
func keyIn(t *testing.T, path, key string) string {
	t.Helper()
	r, err := zip.OpenReader(path)
	if err != nil {
		t.Fatalf("the saved plan is not a zip file: %v", err)
	}
	defer r.Close()
	if len(r.File) == 0 {
		t.Fatal("the saved plan holds no file")
	}
	secrets := [][]byte{[]byte(key), []byte(strings.TrimPrefix(key, "mint_"))}
	for _, f := range r.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		content, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatal(err)
		}
		for _, secret := range secrets {
			if bytes.Contains(content, secret) {
				return f.Name
			}
		}
	}
	return ""
}

// randomAPIKey is a key no other test uses, so that finding it means this
// test's run wrote it.
func randomAPIKey(t *testing.T) string {
	t.Helper()
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return "mint_" + hex.EncodeToString(b)
}
