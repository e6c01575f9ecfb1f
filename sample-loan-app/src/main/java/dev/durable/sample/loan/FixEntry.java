package dev.durable.sample.loan;

/**
 * One correction applied to a loan application while it waited for a fix.
 *
 * @param activity the step that had failed
 * @param field the field corrected
 * @param oldValue its value before
 * @param newValue its value after
 * @param error the failure the fix answers
 * @param id the fix id; a fix whose id was seen before is ignored
 */
public record FixEntry(String activity, String field, String oldValue, String newValue, String error, String id) {

}
