package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
)

// keyAlgorithm is that of the throwaway keys: the Terraform Registry takes
// RSA (or DSA) signing keys only, so a real release key is one too.
const keyAlgorithm = "rsa4096"

// gpgKey is a signing key without a passphrase in its own GNUPGHOME.
type gpgKey struct {
	home        string
	algorithm   string
	fingerprint string
	// armored is the public key, ASCII-armored, as a registry serves it.
	armored string
}

// newGPGKey makes a key for uid in a new GNUPGHOME at home; it expires in
// a day. gpg starts an agent for the home: close stops it.
func newGPGKey(ctx context.Context, home, uid string) (*gpgKey, error) {
	if err := os.MkdirAll(home, 0o700); err != nil {
		return nil, err
	}
	k := &gpgKey{home: home, algorithm: strings.ToUpper(keyAlgorithm[:3]) + " " + keyAlgorithm[3:]}
	if _, err := k.gpg(ctx, "--passphrase", "", "--quick-generate-key", uid, keyAlgorithm, "sign", "1d"); err != nil {
		return nil, errors.Join(err, k.close())
	}
	list, err := k.gpg(ctx, "--with-colons", "--list-secret-keys")
	if err != nil {
		return nil, errors.Join(err, k.close())
	}
	for _, line := range strings.Split(string(list), "\n") {
		if fields := strings.Split(line, ":"); fields[0] == "fpr" && len(fields) > 9 {
			k.fingerprint = fields[9]
			break
		}
	}
	if len(k.fingerprint) != 40 {
		return nil, errors.Join(fmt.Errorf("no fingerprint in gpg --list-secret-keys:\n%s", list), k.close())
	}
	armored, err := k.gpg(ctx, "--armor", "--export", k.fingerprint)
	if err != nil {
		return nil, errors.Join(err, k.close())
	}
	k.armored = string(armored)
	return k, nil
}

// keyID is the long key ID, as the registry protocol and the CLIs show it.
func (k *gpgKey) keyID() string { return k.fingerprint[len(k.fingerprint)-16:] }

// env is what goreleaser needs to sign with the key: the GNUPGHOME, and the
// GPG_FINGERPRINT that .goreleaser.yml passes to gpg --local-user.
func (k *gpgKey) env() []string {
	return []string{"GNUPGHOME=" + k.home, "GPG_FINGERPRINT=" + k.fingerprint}
}

// sign returns a detached binary signature of file, as goreleaser makes.
func (k *gpgKey) sign(ctx context.Context, file string) ([]byte, error) {
	return k.gpg(ctx, "--local-user", k.fingerprint, "--output", "-", "--detach-sign", file)
}

// verify checks a detached signature of file with the key.
func (k *gpgKey) verify(ctx context.Context, sig, file string) error {
	_, err := k.gpg(ctx, "--verify", sig, file)
	return err
}

// close stops the gpg agent of the key's home.
func (k *gpgKey) close() error {
	cmd := exec.Command("gpgconf", "--homedir", k.home, "--kill", "all")
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("gpgconf --kill all: %v: %s", err, out)
	}
	return nil
}

func (k *gpgKey) gpg(ctx context.Context, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "gpg", append([]string{"--batch", "--homedir", k.home}, args...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("gpg %s: %v\n%s", strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return out, nil
}
