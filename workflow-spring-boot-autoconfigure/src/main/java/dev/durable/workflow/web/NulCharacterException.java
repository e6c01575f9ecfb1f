package dev.durable.workflow.web;

import java.beans.PropertyEditorSupport;

import org.jspecify.annotations.Nullable;

/**
 * A request value holds a NUL character (U+0000), which PostgreSQL refuses in text and
 * {@code jsonb}: the request is refused before it reaches the database. Payloads (inputs,
 * message arguments, results) are stored as bytes and may hold one.
 */
final class NulCharacterException extends IllegalArgumentException {

	NulCharacterException(String what) {
		super(what + " contains a NUL character (U+0000), which the database cannot store");
	}

	static boolean contains(@Nullable String text) {
		return text != null && text.indexOf('\u0000') >= 0;
	}

	/**
	 * Binds the String parameters of the generated endpoints (path variables, request
	 * parameters, headers) as they are, refusing a NUL character.
	 */
	static final class Editor extends PropertyEditorSupport {

		@Override
		public void setAsText(@Nullable String text) {
			if (contains(text)) {
				throw new NulCharacterException("The value");
			}
			setValue(text);
		}

	}

}
