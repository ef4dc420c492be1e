import { DomainName, IpAddressType, SecurityPolicy } from 'aws-cdk-lib/aws-apigatewayv2';
import { Certificate, CertificateValidation } from 'aws-cdk-lib/aws-certificatemanager';
import { AaaaRecord, ARecord, type IPublicHostedZone, PublicHostedZone, RecordTarget } from 'aws-cdk-lib/aws-route53';
import { ApiGatewayv2DomainProperties } from 'aws-cdk-lib/aws-route53-targets';
import { Construct } from 'constructs';
import type { Stage } from './stages';

/**
 * A stage's public name (lib/stages.ts `domain`): API Gateway's custom domain for the HTTP API,
 * its certificate (ACM, validated by DNS in the stage's hosted zone, renewed by ACM), and its
 * alias records there (IPv4 and IPv6). The zone itself is the team's: named by id, never created
 * or looked up; the stage's sender is verified in it (lib/email.ts).
 */
export class PublicDomain extends Construct {
  readonly domainName: DomainName;
  /** `https://<name>`: the service's base URL. */
  readonly baseUrl: string;
  /** The stage's hosted zone. */
  readonly zone: IPublicHostedZone;

  constructor(scope: Construct, id: string, props: { domain: NonNullable<Stage['domain']> }) {
    super(scope, id);
    const { name, hostedZoneId, zoneName } = props.domain;
    const zone = (this.zone = PublicHostedZone.fromPublicHostedZoneAttributes(this, 'Zone', { hostedZoneId, zoneName }));
    const certificate = new Certificate(this, 'Certificate', { domainName: name, validation: CertificateValidation.fromDns(zone) });
    this.domainName = new DomainName(this, 'Name', { domainName: name, certificate, securityPolicy: SecurityPolicy.TLS_1_2, ipAddressType: IpAddressType.DUAL_STACK });
    const target = RecordTarget.fromAlias(new ApiGatewayv2DomainProperties(this.domainName.regionalDomainName, this.domainName.regionalHostedZoneId));
    new ARecord(this, 'Alias', { zone, recordName: name, target });
    new AaaaRecord(this, 'AliasIpv6', { zone, recordName: name, target });
    this.baseUrl = `https://${name}`;
  }
}
