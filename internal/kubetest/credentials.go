package kubetest

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"encoding/hex"
	"encoding/pem"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"time"
)

// credentials are the files the API server starts with, and what a client
// needs to reach it.
type credentials struct {
	tokens                               string // the token file
	servingCert, servingKey              string
	serviceAccountKey, serviceAccountPub string
	token                                string
	caPEM                                []byte // the serving certificate, which is its own authority
	roots                                *x509.CertPool
}

// writeCredentials generates, with Go's crypto, a bearer token for a member
// of system:masters, a self-signed serving certificate for 127.0.0.1, and
// the key pair that signs service-account tokens, and writes them to dir.
func writeCredentials(dir string) (credentials, error) {
	c := credentials{
		tokens:            filepath.Join(dir, "tokens.csv"),
		servingCert:       filepath.Join(dir, "serving.crt"),
		servingKey:        filepath.Join(dir, "serving.key"),
		serviceAccountKey: filepath.Join(dir, "sa.key"),
		serviceAccountPub: filepath.Join(dir, "sa.pub"),
	}
	secret := make([]byte, 32)
	if _, err := rand.Read(secret); err != nil {
		return c, err
	}
	c.token = hex.EncodeToString(secret)
	if err := os.WriteFile(c.tokens, []byte(c.token+`,admin,admin,"system:masters"`+"\n"), 0o600); err != nil {
		return c, err
	}

	certPEM, keyPEM, err := selfSignedServingCert()
	if err != nil {
		return c, err
	}
	c.caPEM = certPEM
	c.roots = x509.NewCertPool()
	c.roots.AppendCertsFromPEM(certPEM)
	if err := os.WriteFile(c.servingCert, certPEM, 0o600); err != nil {
		return c, err
	}
	if err := os.WriteFile(c.servingKey, keyPEM, 0o600); err != nil {
		return c, err
	}

	saKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return c, err
	}
	saKeyPEM, err := privateKeyPEM(saKey)
	if err != nil {
		return c, err
	}
	saPub, err := x509.MarshalPKIXPublicKey(&saKey.PublicKey)
	if err != nil {
		return c, err
	}
	if err := os.WriteFile(c.serviceAccountKey, saKeyPEM, 0o600); err != nil {
		return c, err
	}
	return c, os.WriteFile(c.serviceAccountPub, pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: saPub}), 0o600)
}

// selfSignedServingCert returns a certificate for 127.0.0.1 and localhost,
// valid for a day, that is its own certificate authority, and its key.
func selfSignedServingCert() (certPEM, keyPEM []byte, err error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, nil, err
	}
	serial, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 62))
	if err != nil {
		return nil, nil, err
	}
	now := time.Now()
	tmpl := &x509.Certificate{
		SerialNumber:          serial,
		Subject:               pkix.Name{CommonName: "kubetest kube-apiserver"},
		NotBefore:             now.Add(-time.Hour),
		NotAfter:              now.Add(24 * time.Hour),
		KeyUsage:              x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true,
		IsCA:                  true,
		IPAddresses:           []net.IP{net.IPv4(127, 0, 0, 1)},
		DNSNames:              []string{"localhost"},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return nil, nil, err
	}
	keyPEM, err = privateKeyPEM(key)
	if err != nil {
		return nil, nil, err
	}
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), keyPEM, nil
}

func privateKeyPEM(key *ecdsa.PrivateKey) ([]byte, error) {
	der, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		return nil, err
	}
	return pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: der}), nil
}

func base64Std(b []byte) string { return base64.StdEncoding.EncodeToString(b) }
