package dev.kubeheadroom.kubedouble;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * Authentication then authorization, the two filters every request passes before its handler in
 * kube-apiserver ({@code WithAuthentication}, {@code WithAuthorization} in
 * staging/src/k8s.io/apiserver/pkg/server/config.go DefaultBuildHandlerChain). WebSocket
 * upgrades (watches) are ordinary GETs here and need the header and the {@code watch} verb.
 */
final class AccessControl {
  private final Authenticator authenticator = new Authenticator();
  private final RbacAuthorizer authorizer;

  /**
   * What the filters made of one request.
   *
   * @param caller who it authenticated as ({@code name ""} when it did not)
   * @param seed whether it is the admin's seeding (carries {@code SEED_HEADER}): not faulted, not recorded
   * @param answer the filters' own answer in place of the handler's, if any: 401, 403, or a self
   *     subject review, a token or access review
   */
  record Access(UserInfo caller, RequestAttributes attributes, boolean authorized, boolean seed,
      Optional<MockResponse> answer) {}

  AccessControl(Function<String, List<ObjectNode>> store) {
    this.authorizer = new RbacAuthorizer(store);
  }

  Authenticator authenticator() {
    return authenticator;
  }

  Access check(RecordedRequest request) {
    RequestAttributes attributes = RequestAttributes.of(request.getMethod(), request.getPath());
    Optional<UserInfo> user = authenticator.authenticate(request.getHeader("Authorization"));
    if (user.isEmpty()) {
      return new Access(new UserInfo("", List.of()), attributes, false, false,
          Optional.of(StatusResponses.unauthorized()));
    }
    boolean seed = request.getHeader(ApiServerDispatcher.SEED_HEADER) != null
        && user.get().groups().contains(UserInfo.MASTERS);
    RbacAuthorizer.Decision decision = authorizer.authorize(user.get(), attributes);
    Optional<MockResponse> answer;
    if (!decision.allowed()) {
      answer = Optional.of(StatusResponses.forbidden(user.get(), attributes, decision.reason()));
    } else if (Reviews.handles(attributes)) {
      answer = Optional.of(Reviews.answer(user.get(), attributes, request.getUtf8Body(), authenticator::token,
          authorizer::authorize));
    } else {
      answer = Optional.empty();
    }
    return new Access(user.get(), attributes, decision.allowed(), seed, answer);
  }
}
