package rtm

import "context"

// Iterator walks a listing page after page, fetching the next page when the current one is
// used up:
//
//	it := client.AllWebhookEndpoints()
//	for it.Next(ctx) {
//		endpoint := it.Value()
//	}
//	if err := it.Err(); err != nil { … }
type Iterator[T any] struct {
	fetch func(ctx context.Context, cursor *string) ([]T, *string, error)
	page  []T
	index int
	next  *string
	done  bool
	err   error
	value T
}

// newIterator pages with fetch: it answers one page and the cursor of the next (nil: last page).
func newIterator[T any](fetch func(ctx context.Context, cursor *string) ([]T, *string, error)) *Iterator[T] {
	return &Iterator[T]{fetch: fetch, index: -1}
}

// Next moves to the next item, fetching a page when needed; false at the end or on an error.
func (it *Iterator[T]) Next(ctx context.Context) bool {
	for {
		if it.err != nil {
			return false
		}
		if it.index+1 < len(it.page) {
			it.index++
			it.value = it.page[it.index]
			return true
		}
		if it.done {
			return false
		}
		page, next, err := it.fetch(ctx, it.next)
		if err != nil {
			it.err = err
			return false
		}
		it.page, it.index, it.next = page, -1, next
		it.done = next == nil
	}
}

// Value is the current item (after Next answered true).
func (it *Iterator[T]) Value() T { return it.value }

// Err is the error that ended the walk, or nil.
func (it *Iterator[T]) Err() error { return it.err }

// Collect walks what is left and returns it as a slice.
func (it *Iterator[T]) Collect(ctx context.Context) ([]T, error) {
	var all []T
	for it.Next(ctx) {
		all = append(all, it.Value())
	}
	return all, it.Err()
}
