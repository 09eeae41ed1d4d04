package provider

import (
	"reflect"

	"github.com/hashicorp/terraform-plugin-framework/attr"
)

// sameValues reports whether two models (structs whose fields are all
// attr.Value, such as staticExportBundleModel) hold equal values in every
// field, by the values' own Equal. reflect.DeepEqual would not do: a number
// read from state and the same number set by the provider may differ in
// their big.Float precision.
func sameValues[T any](a, b *T) bool {
	va, vb := reflect.ValueOf(a).Elem(), reflect.ValueOf(b).Elem()
	for i := range va.NumField() {
		x, ok := va.Field(i).Interface().(attr.Value)
		if !ok {
			return false
		}
		y, _ := vb.Field(i).Interface().(attr.Value)
		if !x.Equal(y) {
			return false
		}
	}
	return true
}
