/**
 * How values are stored: the {@link dev.durable.workflow.payload.PayloadConverter} the
 * engine encodes every input, result and message with (JSON by default, optionally
 * encrypted), and {@link dev.durable.workflow.payload.EncodedValue}, a stored value read
 * on demand. Types are non-null unless marked
 * {@link org.jspecify.annotations.Nullable @Nullable}.
 */
@NullMarked
package dev.durable.workflow.payload;

import org.jspecify.annotations.NullMarked;
