package rtm

import (
	"bytes"
	"encoding/json"
)

// Ptr returns a pointer to v: the optional fields of the request types are pointers.
func Ptr[T any](v T) *T { return &v }

// Nullable is an optional field that may also be sent as JSON null: a nil *Nullable is left out
// of the request, Null[T]() sends null (a configuration patch's "remove", an endpoint's "no
// filter"), Some(v) sends v. In an answer, a field that is absent or null decodes as nil.
type Nullable[T any] struct {
	Value T
	Valid bool // false: null
}

// Some is a Nullable holding v.
func Some[T any](v T) *Nullable[T] { return &Nullable[T]{Value: v, Valid: true} }

// Null is a Nullable sent as JSON null.
func Null[T any]() *Nullable[T] { return &Nullable[T]{} }

// MarshalJSON writes the value, or null.
func (n Nullable[T]) MarshalJSON() ([]byte, error) {
	if !n.Valid {
		return []byte("null"), nil
	}
	return json.Marshal(n.Value)
}

// UnmarshalJSON reads a value, or null.
func (n *Nullable[T]) UnmarshalJSON(data []byte) error {
	if bytes.Equal(bytes.TrimSpace(data), []byte("null")) {
		var zero T
		n.Value, n.Valid = zero, false
		return nil
	}
	n.Valid = true
	return json.Unmarshal(data, &n.Value)
}
