/**
 * The fuzzers' shared parts (docs/reliability.md, "Hostile inputs"): {@link
 * dev.kubeheadroom.testkit.fuzz.HostileDocuments} mutates a corpus's seeds, {@link
 * dev.kubeheadroom.testkit.fuzz.FuzzCorpus} reads a module's corpus.
 */
package dev.kubeheadroom.testkit.fuzz;
