package dev.kubeheadroom.kubedouble;

import static dev.kubeheadroom.kubedouble.JsonResponses.error;
import static dev.kubeheadroom.kubedouble.JsonResponses.ok;
import static dev.kubeheadroom.kubedouble.JsonResponses.read;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kubeheadroom.kubedouble.ApiRequest.Verb;
import dev.kubeheadroom.kubedouble.PodAdmission.NamespaceObjects;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.dsl.base.CustomResourceDefinitionContext;
import io.fabric8.kubernetes.client.server.mock.KubernetesAttributesExtractor;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.mockwebserver.crud.AttributeSet;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * fabric8's CRUD dispatcher plus what a real API server does and the stock mock does not: the
 * {@code pods/resize} subresource, strategic-merge and server-side-apply patches of pods, field
 * selectors on lists and watches, creation-time pod defaults ({@code status.qosClass}), fault
 * injection and a request journal. Everything else goes to the stock CRUD behaviour.
 *
 * <p>All writes are serialized by one lock (reads share it), so a resize validates against the
 * state it replaces.
 */
final class ApiServerDispatcher extends KubernetesCrudDispatcher {
  /** Requests from the admin carrying this header are seeding, not traffic: not faulted, not recorded. */
  static final String SEED_HEADER = "X-Kube-Double-Seed";

  private static final Logger LOG = LoggerFactory.getLogger(ApiServerDispatcher.class);

  private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
  private final FaultInjector faults = new FaultInjector();
  private final FieldOwnership ownership = new FieldOwnership();
  private final RequestJournal journal;
  private final AccessControl access = new AccessControl(this::stored);
  private final List<Consumer<PodChange>> podListeners = new CopyOnWriteArrayList<>();
  private final MutatingAdmission admission = new MutatingAdmission(this::stored, this::object);
  private final Watches watches = new Watches();
  private final ListPager.Store store = new CrudStore(map, this::getKey);
  private final WatchEndpoint watchEndpoint = new WatchEndpoint(store, watches);
  private final ListPager lists = new ListPager(store, watches);
  private final ObjectIndex index = new ObjectIndex(map);
  private volatile ServerVersion version = ServerVersion.DEFAULT;

  /** A pod was added, modified or deleted in the store (by any writer). */
  record PodChange(String type, String namespace, String name) {}

  ApiServerDispatcher(List<CustomResourceDefinitionContext> customResources, RequestJournal journal) {
    super(customResources);
    this.journal = journal;
    watches.knowKinds(customResources);
  }

  FaultInjector faults() {
    return faults;
  }

  Authenticator authenticator() {
    return access.authenticator();
  }

  void version(ServerVersion version) {
    this.version = Objects.requireNonNull(version, "version");
  }

  Watches watches() {
    return watches;
  }

  void onPodChange(Consumer<PodChange> listener) {
    podListeners.add(listener);
  }

  MutatingAdmission admission() {
    return admission;
  }

  @Override
  public MockResponse dispatch(RecordedRequest request) {
    ApiRequest api = ApiRequest.parse(request.getMethod(), request.getPath(),
        request.getHeader("Content-Type"), request.getHeader("User-Agent"));
    AccessControl.Access caller = access.check(request);
    if (caller.seed()) {
      return answer(api, request, caller.caller(), true);
    }
    if (caller.answer().isPresent()) {
      journal.record(api, caller.answer().get().code(), caller.caller(), caller.attributes(), caller.authorized(),
          api.verb() == Verb.PATCH ? request.getUtf8Body() : "");
      return caller.answer().get();
    }
    // A PATCH's body goes to the journal too: reading it drains the request's buffer, so the
    // request is answered from a copy.
    String patchBody = api.verb() == Verb.PATCH ? request.getUtf8Body() : "";
    RecordedRequest answered = api.verb() == Verb.PATCH
        ? RequestRewrites.withBody(request, patchBody.getBytes(StandardCharsets.UTF_8)) : request;
    Optional<Fault> fault = faults.take(api);
    MockResponse response = fault.flatMap(f -> StatusResponses.programmed(f, api))
        .orElseGet(() -> answer(api, answered, caller.caller(), false));
    if (fault.isPresent() && fault.get() instanceof Fault.Delay delay) {
      response.setBodyDelay(delay.delay());
    }
    journal.record(api, response.code(), caller.caller(), caller.attributes(), true, patchBody);
    return response;
  }

  private MockResponse answer(ApiRequest api, RecordedRequest request, UserInfo caller, boolean seed) {
    try {
      if (api.verb() == Verb.LIST && api.path().replaceAll("\\?.*$", "").replaceAll("/+$", "").equals("/version")) {
        return ok(version.toJson());
      }
      if (api.isPods() && api.verb() == Verb.PATCH && api.subresource().equals("resize")) {
        return locked(lock.writeLock(), () -> resize(api, request.getUtf8Body()));
      }
      if (api.isPods() && api.verb() == Verb.PATCH && api.subresource().isEmpty()) {
        return locked(lock.writeLock(), () -> patchPodMetadata(api, request.getUtf8Body()));
      }
      if (api.isPods() && api.verb() == Verb.CREATE && api.name().isEmpty()) {
        ObjectNode body = read(request.getUtf8Body()); // admission: no lock held while webhooks are called
        ObjectNode pod = seed ? body : admitCreate(api, body, caller);
        return locked(lock.writeLock(), () -> createPod(api, request, pod, seed));
      }
      if (!api.isPods() && api.verb() == Verb.PATCH && api.subresource().equals("status")) {
        return locked(lock.writeLock(), () -> patchStatus(api, request));
      }
      if (api.verb() == Verb.UPDATE && api.subresource().equals("status") && !api.query().isEmpty()) {
        return locked(lock.writeLock(), () -> super.dispatch(RequestRewrites.withoutQuery(request)));
      }
      if (api.verb() == Verb.WATCH) {
        return locked(lock.readLock(), () -> watchEndpoint.watch(api));
      }
      if (api.verb() == Verb.LIST && !api.resource().isEmpty()) {
        return locked(lock.readLock(), () -> lists.list(api));
      }
      if (api.verb() == Verb.GET && api.subresource().isEmpty() && api.query().isEmpty()) {
        return locked(lock.readLock(), () -> Optional.ofNullable(findResource(getKey(request.getPath())))
            .map(found -> new MockResponse().setResponseCode(200).setHeader("Content-Type", "application/json")
                .setBody(found.getValue())).orElseGet(() -> super.dispatch(request))); // the stock GET scans
      }
      boolean write = api.verb() != Verb.GET && api.verb() != Verb.LIST && api.verb() != Verb.WATCH;
      return CrudConflicts.reworded(api,
          locked(write ? lock.writeLock() : lock.readLock(), () -> super.dispatch(request)));
    } catch (ApiError.Failure failure) {
      return error(failure.error());
    } catch (RuntimeException e) {
      LOG.warn("kube-double failed to answer {}", api, e);
      return error(new ApiError(500, "InternalError", "Internal error occurred: " + e, "", "", ""));
    }
  }

  // ---- pods/resize ----------------------------------------------------------------------------

  private MockResponse resize(ApiRequest api, String body) {
    PodPatch p = patchPod(api, body);
    PodDefaults.defaultResources(p.merged().path("spec"));
    NamespaceObjects namespace = NamespaceObjects.read(api.namespace(), this::stored);
    PodAdmission.mutateResize(p.merged(), namespace);
    PodUpdateRules.validateResize(p.current(), p.merged());
    List<ObjectNode> quotas = PodAdmission.validateResize(p.current(), p.merged(), namespace, n -> object("/api/v1/nodes/" + n));
    p.recordOwners().run();
    if (p.merged().equals(p.current())) {
      return ok(p.current());
    }
    ObjectNode meta = (ObjectNode) p.merged().path("metadata");
    meta.put("generation", p.current().path("metadata").path("generation").asLong(1) + 1);
    ObjectNode stored = store(p.entry(), p.merged());
    quotas.forEach(this::storeQuota);
    return ok(stored);
  }

  // ---- PATCH on the pod itself (metadata) -----------------------------------------------------

  private MockResponse patchPodMetadata(ApiRequest api, String body) {
    PodPatch p = patchPod(api, body);
    ObjectNode stored = PodUpdateRules.validateMetadataPatch(p.current(), p.merged());
    p.recordOwners().run();
    if (stored.equals(p.current())) {
      return ok(p.current());
    }
    return ok(store(p.entry(), stored));
  }

  /** A patch applied to a stored pod, before the endpoint's own validation and the store. */
  private record PodPatch(Map.Entry<AttributeSet, String> entry, ObjectNode current, ObjectNode merged,
      Runnable recordOwners) {}

  private PodPatch patchPod(ApiRequest api, String body) {
    Map.Entry<AttributeSet, String> entry = findPod(api.namespace(), api.name())
        .orElseThrow(() -> ApiError.notFound("pods", api.name()).asFailure());
    ObjectNode current = read(entry.getValue());
    Patches type = Patches.of(api.contentType());
    JsonNode patch = type.parse(body);
    PodUpdateRules.checkPreconditions(current, patch);
    ObjectNode merged = type.apply(current, patch);
    return new PodPatch(entry, current, merged, ownership.forPatch(api, type, current, patch, merged));
  }

  // ---- pod creation ---------------------------------------------------------------------------

  /**
   * The mutating admission phase of a pod CREATE in kube-apiserver's plugin order: decode
   * defaulting, LimitRanger's defaults, then the mutating webhooks (which see those defaults).
   */
  private ObjectNode admitCreate(ApiRequest api, ObjectNode body, UserInfo caller) {
    PodDefaults.defaultResources(body.path("spec"));
    PodAdmission.mutateCreate(body, NamespaceObjects.read(api.namespace(), this::stored));
    return admission.admit(api, body, AdmissionReviews.User.of(caller));
  }

  private MockResponse createPod(ApiRequest api, RecordedRequest request, ObjectNode pod, boolean seed) {
    PodDefaults.applyOnCreate(pod, seed);
    List<ObjectNode> quotas = List.of();
    if (!seed) { // seeding bypasses admission: objects that predate a LimitRange exist on real clusters
      quotas = PodAdmission.validateCreate(pod, NamespaceObjects.read(api.namespace(), this::stored));
    }
    MockResponse created = super.dispatch(
        RequestRewrites.withBody(request, pod.toString().getBytes(StandardCharsets.UTF_8)));
    if (created.code() / 100 == 2) {
      quotas.forEach(this::storeQuota);
    }
    return created;
  }

  /**
   * {@code PATCH .../status} of a custom resource: a JSON merge patch becomes the JSON patch the
   * stock handler applies correctly ({@link RequestRewrites}); other patch types go to it as they
   * are. Either way without the query.
   */
  private MockResponse patchStatus(ApiRequest api, RecordedRequest request) {
    RecordedRequest bare = RequestRewrites.withoutQuery(request);
    if (Patches.of(api.contentType()) != Patches.MERGE) {
      return super.dispatch(bare);
    }
    String objectPath = bare.getPath().substring(0, bare.getPath().length() - "/status".length());
    Map.Entry<AttributeSet, String> entry = findResource(getKey(objectPath));
    if (entry == null) {
      throw ApiError.notFound(api.resource(), api.name()).asFailure();
    }
    return super.dispatch(RequestRewrites.asJsonPatch(bare, read(entry.getValue())));
  }

  // ---- the store, for the kubelet double and seeding ------------------------------------------

  /**
   * The stock mock notifies watchers one by one; a watch that is closing rejects its event and
   * the exception would cut every later watcher off from it. Retry until the closing watch has
   * left the set (a watcher already notified may see the event twice, which informers tolerate).
   */
  private void notifyWatchers(String path, AttributeSet pathAttributes, AttributeSet oldAttributes,
      GenericKubernetesResource resource, String newState) {
    for (int attempt = 1; ; attempt++) {
      try {
        super.processEvent(path, pathAttributes, oldAttributes, resource, newState);
        return;
      } catch (java.util.concurrent.RejectedExecutionException e) {
        if (attempt >= 100) {
          throw e;
        }
        java.util.concurrent.locks.LockSupport.parkNanos(2_000_000); // the closing watch unregisters itself
      }
    }
  }

  @Override
  public void processEvent(String path, AttributeSet pathAttributes, AttributeSet oldAttributes,
      GenericKubernetesResource resource, String newState) {
    String oldState = oldAttributes == null ? null : map.get(oldAttributes);
    notifyWatchers(path, pathAttributes, oldAttributes, resource, newState);
    AttributeSet now = newState == null ? null : resource != null // keyed as the stock store keys it
        ? ((KubernetesAttributesExtractor) attributeExtractor).extract(resource) : attributeExtractor.fromResource(newState);
    now = now == null || now.containsKey(KubernetesAttributesExtractor.PLURAL) ? now : AttributeSet.merge(pathAttributes, now);
    index.moved(oldAttributes, now);
    String state = newState != null ? newState : oldState;
    if (state == null || Objects.equals(oldState, newState)) {
      return;
    }
    JsonNode object = read(state);
    recordChange(path, object, oldAttributes, oldState, now, newState);
    if (!"Pod".equals(object.path("kind").asText()) || !object.path("apiVersion").asText().equals("v1")) {
      return;
    }
    JsonNode meta = object.path("metadata");
    if (newState == null) {
      ownership.forget(meta.path("uid").asText(""));
    }
    PodChange change = new PodChange(newState == null ? "DELETED" : oldState == null ? "ADDED" : "MODIFIED",
        meta.path("namespace").asText(), meta.path("name").asText());
    podListeners.forEach(listener -> listener.accept(change));
  }

  /** Records a write for watches at its resourceVersion; a delete takes a revision of its own, as in etcd. */
  private void recordChange(String path, JsonNode object, AttributeSet oldAttributes, String oldState,
      AttributeSet now, String newState) {
    long stored = object.path("metadata").path("resourceVersion").asLong(-1);
    watches.record(path, object, StoredChange.of(newState == null || stored < 0 ? requestResourceVersion() : stored,
        object, oldAttributes, oldState, now, newState));
  }

  /** The stored object {@code attributes} selects, found by name rather than by a scan ({@link ObjectIndex}). */
  @Override
  public Map.Entry<AttributeSet, String> findResource(AttributeSet attributes) {
    return index.find(attributes);
  }

  /** The stored pod, as the API server would return it. */
  Optional<ObjectNode> pod(String namespace, String name) {
    return locked(lock.readLock(), () -> findPod(namespace, name).map(e -> read(e.getValue())));
  }

  /** Every stored pod. */
  List<ObjectNode> pods() {
    return stored("/api/v1/pods");
  }

  /** A collection's stored objects, parsed after the read lock (parsing 150,000 pods under it stalled every write). */
  List<ObjectNode> stored(String collectionPath) {
    List<String> values = locked(lock.readLock(), () -> Optional.ofNullable(index.inCollection(getKey(collectionPath)))
        .orElseGet(() -> ((CrudStore) store).values(collectionPath)));
    return CrudStore.byName(values);
  }

  /** The stored object at a path, e.g. {@code /api/v1/namespaces/team-a}. */
  Optional<ObjectNode> object(String path) {
    return locked(lock.readLock(), () -> Optional.ofNullable(findResource(getKey(path))).map(e -> read(e.getValue())));
  }

  /** Stores a quota's new status as a write would, watchers included. */
  private void storeQuota(ObjectNode updated) {
    JsonNode meta = updated.path("metadata");
    String path = "/api/v1/namespaces/" + meta.path("namespace").asText() + "/resourcequotas/" + meta.path("name").asText();
    Map.Entry<AttributeSet, String> entry = findResource(getKey(path));
    if (entry != null) {
      ((ObjectNode) meta).put("resourceVersion", String.valueOf(requestResourceVersion()));
      processEvent(path, getKey(path), entry.getKey(), null, updated.toString());
    }
  }

  /**
   * Changes a stored pod without an HTTP request (the kubelet's status writes): {@code change}
   * gets a copy of the current pod; if it returns a different object, that is stored with a new
   * resourceVersion and watchers see MODIFIED. Returns whether anything was written.
   */
  boolean updatePod(String namespace, String name, UnaryOperator<ObjectNode> change) {
    return locked(lock.writeLock(), () -> {
      Optional<Map.Entry<AttributeSet, String>> entry = findPod(namespace, name);
      if (entry.isEmpty()) {
        return false;
      }
      ObjectNode current = read(entry.get().getValue());
      ObjectNode changed = change.apply(current.deepCopy());
      // Compare as stored: a number put as a long reads back as an int, and IntNode(2) does not
      // equal LongNode(2); comparing node types would "change" the pod on every pass, forever.
      if (changed == null || read(changed.toString()).equals(current)) {
        return false;
      }
      store(entry.get(), changed);
      return true;
    });
  }

  private Optional<Map.Entry<AttributeSet, String>> findPod(String namespace, String name) {
    return Optional.ofNullable(findResource(getKey(podPath(namespace, name))));
  }

  private ObjectNode store(Map.Entry<AttributeSet, String> entry, ObjectNode updated) {
    ((ObjectNode) updated.path("metadata")).put("resourceVersion", String.valueOf(requestResourceVersion()));
    String namespace = updated.path("metadata").path("namespace").asText();
    String path = podPath(namespace, updated.path("metadata").path("name").asText());
    processEvent(path, getKey(path), entry.getKey(), null, updated.toString());
    return updated;
  }

  private static String podPath(String namespace, String name) {
    return "/api/v1/namespaces/" + namespace + "/pods/" + name;
  }

  private static <T> T locked(Lock lock, Supplier<T> action) {
    lock.lock();
    try {
      return action.get();
    } finally {
      lock.unlock();
    }
  }
}
