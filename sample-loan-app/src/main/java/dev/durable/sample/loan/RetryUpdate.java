package dev.durable.sample.loan;

/**
 * The payload of the {@code fix} signal: one field of the application and its new value. The
 * failed step is retried with the corrected application.
 *
 * @param key the field to correct, for example {@code ssn}; {@code null} retries the step as is
 * @param value the new value
 * @param id the fix id, for deduplication: the same fix sent twice is applied once; generated
 * by the controller when absent
 */
public record RetryUpdate(String key, String value, String id) {

}
