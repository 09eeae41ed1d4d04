package archivefile

import "slices"

// ChecksumRead reports whether some tar reader reads v from the checksum
// field, as the readings model it.
func ChecksumRead(field []byte, v int64) bool { return slices.Contains(checksumReadings(field), v) }
